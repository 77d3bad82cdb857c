/**
 * Rule help that stands on its own in a code scanning alert: whoever reads it has the repository, not our run
 * directory, so it says what the rule means and what to do without naming a local run.
 */

interface RuleHelp {
  what: string;
  todo: string;
}

const HELP: Record<string, RuleHelp> = {
  secrets: {
    what: 'A credential (API key, token, private key or password) is written in the change.',
    todo: "Remove it from the code, rotate it at its provider (once pushed it may already be copied), and load it from the environment or a secret manager. Whether a result is not a secret is for a person to decide: `tollgate waive ID --reason TEXT` with the result's `tollgateFindingId`.",
  },
  advisories: {
    what: 'A dependency the change adds or updates has a published security advisory (OSV/GitHub Advisory Database).',
    todo: 'Upgrade to the fixed version the result names, or pin a version outside the affected range; if no fix exists yet, choose another package or accept the risk with `tollgate waive ID --reason TEXT`.',
  },
  checks: {
    what: "A project check from the repository's tollgate config failed on the change.",
    todo: 'Run the check locally (its command is in the config line this result points at), fix what its output names, and run `tollgate run` again.',
  },
  code_review: {
    what: 'A code reviewer (an AI CLI run by tollgate) flagged a problem in the change.',
    todo: "Read the result's message, fix the code or answer it; a false positive can be waived with `tollgate waive ID --reason TEXT`.",
  },
  static_analysis: {
    what: 'A static analyzer reported a problem in the changed lines.',
    todo: "Follow the analyzer's message and rule documentation, then run `tollgate run` again.",
  },
};

const FALLBACK: RuleHelp = {
  what: 'tollgate reported a problem in the change.',
  todo: "Read the result's message, fix the code, and run `tollgate run` again.",
};

/** Help as plain text and as Markdown, both complete. */
export function ruleHelp(validator: string, ruleId: string | undefined): { text: string; markdown: string } {
  const help = HELP[validator] ?? FALLBACK;
  const rule = ruleId ? ` (rule \`${ruleId}\`)` : '';
  return {
    text: `${help.what}${ruleId ? ` Rule: ${ruleId}.` : ''}\n\nWhat to do: ${help.todo.replaceAll('`', '')}`,
    markdown: `${help.what}${rule}\n\n**What to do:** ${help.todo}\n\nReported by [tollgate](https://github.com/tollgate-dev/tollgate), validator \`${validator}\`.`,
  };
}
