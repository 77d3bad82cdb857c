import { whatEndsPendingEdit } from '../../core/policy/pending-edit-advice.js';
import type { AgentFinding } from '../../core/run/agent-findings.js';
import type { GateStatus } from '../../core/run/gate-status.js';
import { type HookAgent, MCP_SERVER_KEY } from './hook-agent.js';
import type { StopFindings } from './stop-findings.js';
import type { StopRunSummary } from './stop-run.js';

export interface BlockReasonInput {
  status: GateStatus;
  /** The MCP tool to call, if any. */
  mcpToolName: string | null;
  /** The agent blocked, for how it finds a deferred MCP tool (see `HookAgent.findDeferredTool`). */
  agent?: Pick<HookAgent, 'findDeferredTool'>;
  /** What the hook's own run did, when it ran validators. */
  ran: StopRunSummary | null;
  /** The findings of the runs of the current change, read back from their logs. */
  findings: StopFindings | null;
  /** `.tollgate/state.json` is there but not signed with this hook's state key. */
  stateRefused?: boolean;
}

/**
 * Why recorded runs do not count when the state file's signature does not match: most often not an edit but two
 * tollgate processes with different keys, e.g. an MCP server started without the hook's XDG_STATE_HOME.
 */
const STATE_REFUSED =
  "tollgate: no recorded validation counts: .tollgate/state.json is not signed with this stop hook's state key " +
  '(it was edited outside tollgate, or written by a tollgate process that uses another key: an MCP server that does ' +
  'not get the XDG_STATE_HOME or TOLLGATE_STATE_SIGNER_PATH the hook sees; docs/integrations.md).';

/** Short and imperative: what is wrong (the top findings by name and place), what to call, how to see the rest. */
export function blockReason(input: BlockReasonInput): string {
  const { status, ran } = input;
  const call = input.mcpToolName
    ? `Call the \`${input.mcpToolName}\` tool (tollgate MCP server; ${findTool(input.agent, input.mcpToolName)}) or run \`tollgate run\``
    : 'Run `tollgate run`';
  const fixThen = `Fix them, then ${lowerFirst(call)} again before finishing.`;
  if (ran && ran.failing.length > 0) {
    const head = `tollgate: the stop hook ran ${ran.ran.join(', ')} on the current changes: ${ran.failing.join(', ')} did not pass (${ran.findings} finding(s)).`;
    return compose(head, whatToFix(input), fixThen);
  }
  const edits = status.state === 'failed' ? (status.pendingPolicyEdits ?? []) : [];
  if (edits.length > 0) {
    // What the agent reads: a person must accept the edit; never the command that does it.
    const pending = `A policy edit is pending. ${whatEndsPendingEdit({ reader: 'agent', paths: edits })}`;
    const block = whatToFix(input);
    const tail = block === '' ? `${pending} Then ${lowerFirst(call)} again before finishing.` : `${fixThen} ${pending}`;
    return compose(`tollgate: validation failed on the current changes (run ${status.verdict?.runId}).`, block, tail);
  }
  if (ran && ran.missing.length > 0) {
    return `tollgate: the stop hook ran ${ran.ran.join(', ')} on the current changes and they passed, but ${ran.missing.join(', ')} still need a run. ${call}, fix what it reports, then finish.`;
  }
  switch (status.state) {
    case 'failed':
      return compose(
        `tollgate: validation failed on the current changes (run ${status.verdict?.runId}).${laterRun(status)}`,
        whatToFix(input),
        fixThen,
      );
    case 'stale':
      return compose(
        `tollgate: ${staleWhy(status)}`,
        whatToFix(input, 'From an earlier run of these changes'),
        `${call} on the current changes, fix what it reports, then finish.`,
      );
    case 'never':
      if (input.stateRefused) return `${STATE_REFUSED} ${call}, fix what it reports, then finish.`;
      return `tollgate: the current changes have not been validated. ${call}, fix what it reports, then finish.`;
    case 'validated':
      return '';
  }
}

/**
 * Agents defer MCP tools behind a tool search (Claude Code 2.1, Codex 0.17x): the model does not see the tool until
 * it looks for it, so the reason says how, in the agent's own naming where that is verified.
 */
function findTool(agent: BlockReasonInput['agent'], tool: string): string {
  return (
    agent?.findDeferredTool?.(MCP_SERVER_KEY, tool) ?? `if you do not see it, search your tools for tollgate ${tool}`
  );
}

/** One line when there is nothing to list; otherwise the list on lines of its own, between the two sentences. */
function compose(head: string, block: string, tail: string): string {
  return block === '' ? `${head} ${tail}` : `${head}\n${block}\n${tail}`;
}

/** A later run examined another change set (`--base`, other files): say so, or its pass reads as this change's. */
function laterRun(status: GateStatus): string {
  const latest = status.latest;
  if (!latest || latest.runId === status.verdict?.runId || latest.fingerprint === status.fingerprint) return '';
  return ` The latest run (${latest.runId}, ${latest.verdict}) examined another change set (another \`--base\`, or other files), so it does not count for these changes.`;
}

function staleWhy(status: GateStatus): string {
  switch (status.staleBecause) {
    case 'config':
      return 'the config (or a TOLLGATE_* environment override) changed since these changes were last validated, so that validation no longer counts.';
    case 'validators':
      return `not every enabled validator (${status.enabledTools.join(', ')}) has run on the current changes under this config.`;
    default:
      return 'the files or commits changed since the last validation.';
  }
}

/** The top findings, one line each (title, place, what failed), the first failed check's excerpt, and the rest. */
function whatToFix(input: BlockReasonInput, heading = 'To fix'): string {
  const found = input.findings;
  if (!found || (found.list.findings.length === 0 && found.brokenTools.length === 0)) {
    const count = input.status.unresolvedFindings;
    return count > 0 ? `${count} unresolved finding(s): \`tollgate log\` lists them.` : '';
  }
  const lines = [`${heading}:`, ...found.list.findings.map((finding, index) => `${index + 1}. ${describe(finding)}`)];
  const firstCheck = found.list.findings.find((finding) => finding.excerpt);
  if (firstCheck?.excerpt) {
    lines.push(`Output of ${firstCheck.title.replace(/ failed.*$/, '')} (failure lines, then the end):`);
    lines.push(...firstCheck.excerpt.split('\n').map((line) => `    ${line}`));
  }
  for (const tool of found.brokenTools) lines.push(`- ${tool}`);
  const rest = found.list.omitted > 0 ? `${found.list.omitted} more; ` : '';
  lines.push(`(${rest}\`tollgate log ${found.runId}\` shows the whole run.)`);
  return lines.join('\n');
}

function describe(finding: AgentFinding): string {
  const where = finding.location ? ` at ${finding.location}` : '';
  const first = finding.message.split('\n')[0]!.trim();
  const message = first !== '' && first !== finding.title ? `: ${clip(first, 200)}` : '';
  return `${finding.title}${where}${message} (id ${finding.id})`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
