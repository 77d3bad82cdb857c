import type { Command } from 'commander';
import { z } from 'zod';
import { AGENT_NAMES } from '../../agents/index.js';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const agentsFlags = z.object({ json: z.boolean().default(false) });

export function registerAgents(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('agents')
    .summary('list the AI CLIs code_review can use: installed, version, health, exact command')
    .description(
      `For each agent CLI adapter (${AGENT_NAMES.join(', ')}): whether it is installed and logged in, its version and whether its flags were verified on it, whether it is healthy or cooling down after a usage limit (and until when), how it is kept read-only, and the exact command a review runs.`,
    )
    .option('--json', 'print JSON instead of text')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate agents
  $ tollgate agents --json`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(agentsFlags, rawFlags);
      const { cwd, env, write } = io();
      const { describeAgentsHere } = await import('../describe-agents.js');
      const { statuses, text } = await describeAgentsHere({ cwd, env: env as NodeJS.ProcessEnv });
      write(flags.json ? `${JSON.stringify(statuses, null, 2)}\n` : text);
    });
}
