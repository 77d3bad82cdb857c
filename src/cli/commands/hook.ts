import type { Command } from 'commander';
import { z } from 'zod';
import { HOOK_AGENTS } from '../../integrations/hooks/index.js';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';
import { hookGroup } from './hook-group.js';

export { hookGroup };

const stopFlags = z.object({ agent: z.enum(HOOK_AGENTS).optional() });

/** `tollgate hook stop`. */
export function registerHookStop(program: Command, io: () => CommandIo = processIo): void {
  hookGroup(program)
    .command('stop')
    .summary("answer an agent's stop hook: allow once validation passed on the current change")
    .description(
      "Reads the agent's stop-hook JSON on stdin and prints the agent's own reply on stdout: it allows the stop when the last complete validation of the current change (same files, same config) passed, and otherwise blocks with a short reason naming `parallel_validation` or `tollgate run` and the unresolved findings. Always exits 0. It fails open (allows, with a warning on stderr and in .tollgate/hooks.log) on any internal problem, allows after 5 blocks in a row in a session (under the agents' own caps), and always allows inside a reviewer tollgate started (TOLLGATE_ACTIVE=1).",
    )
    .option('--agent <name>', `the agent's wire format: ${HOOK_AGENTS.join(', ')} (default: detected from the payload)`)
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate hook stop --agent cursor
  $ tollgate hook stop`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(stopFlags, rawFlags);
      const { cwd, env, write } = io();
      const { runStopHook } = await import('../../integrations/hooks/stop.js');
      const { TOLLGATE_VERSION } = await import('../../core/version.js');
      const answer = await runStopHook({
        version: TOLLGATE_VERSION,
        stdin: process.stdin,
        env: env as NodeJS.ProcessEnv,
        cwd,
        ...(flags.agent ? { agent: flags.agent } : {}),
      });
      write(answer.stdout);
    });
}
