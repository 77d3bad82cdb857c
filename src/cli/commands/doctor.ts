import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const doctorFlags = z.object({ json: z.boolean().default(false), bin: z.string().trim().min(1).optional() });

/** The stop hook's last fail-open in this repository: a gate that stopped gating must not go unnoticed. */
async function describeLastFailOpen(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const [{ findRepoRoot }, { readLastFailOpen }] = await Promise.all([
    import('../../core/config/repo-root.js'),
    import('../../integrations/hooks/fail-open.js'),
  ]);
  const repoRoot = await findRepoRoot(cwd, env).catch(() => null);
  if (!repoRoot) return '';
  const last = readLastFailOpen(repoRoot);
  if (!last) return '\nstop hook: no fail-open recorded in this repository\n';
  const outcome = last.decision === 'allow' ? 'let the agent stop unvalidated' : 'refused the stop';
  return `\nstop hook: last fail-open ${last.at} (${last.agent}): ${last.why}; it ${outcome}. See .tollgate/hooks.log.\n`;
}

/** `tollgate doctor`. */
export function registerDoctor(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('doctor')
    .summary('show where the stop hook and MCP server are installed')
    .description(
      "For each agent (Claude Code, Codex, Copilot CLI, Cursor, Gemini CLI) and scope (this project, your user), reads the agent's own config files and says whether tollgate's stop hook and MCP server are there, and for Codex whether the hook is trusted.",
    )
    .option('--json', 'print the rows as JSON')
    .option('--bin <command>', 'the command install was given (default: tollgate)')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate doctor
  $ tollgate doctor --json`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(doctorFlags, rawFlags);
      const { cwd, env, write } = io();
      const { diagnoseInstalls, renderDoctor } = await import('../../integrations/hooks/doctor.js');
      const processEnv = env as NodeJS.ProcessEnv;
      const rows = await diagnoseInstalls({
        cwd,
        env: processEnv,
        home: processEnv.HOME ?? processEnv.USERPROFILE ?? '.',
        ...(flags.bin ? { bin: flags.bin } : {}),
      });
      write(flags.json ? `${JSON.stringify(rows, null, 2)}\n` : renderDoctor(rows));
      if (!flags.json) write(await describeLastFailOpen(cwd, processEnv));
    });
}
