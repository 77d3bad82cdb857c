import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from './config.js';

const doctorFlags = z.object({ json: z.boolean().default(false), bin: z.string().trim().min(1).optional() });

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
    });
}
