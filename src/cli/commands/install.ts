import type { Command } from 'commander';
import { z } from 'zod';
import { HOOK_AGENTS, type HookAgentName } from '../../integrations/hooks/index.js';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const installFlags = z
  .object({
    project: z.boolean().default(false),
    user: z.boolean().default(false),
    bin: z.string().trim().min(1).optional(),
  })
  .refine((flags) => !(flags.project && flags.user), { message: 'give --project or --user, not both', path: ['user'] });
const agentArgument = z.enum(HOOK_AGENTS);

function parseAgent(value: string): HookAgentName {
  const parsed = agentArgument.safeParse(value);
  if (parsed.success) return parsed.data;
  return parseFlags(z.object({ agent: agentArgument }), { agent: value }).agent;
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? env.USERPROFILE ?? '.';
}

function declare(command: Command, verb: 'install' | 'uninstall'): Command {
  return command
    .argument('<agent>', `the agent: ${HOOK_AGENTS.join(', ')}`)
    .option('--project', "the project's config files (default)")
    .option('--user', 'your user-level config files (~/.claude, ~/.codex, …)')
    .option(
      '--bin <command>',
      `how the agent starts tollgate (default: tollgate, which must be on its PATH)${verb === 'uninstall' ? '; as given to install' : ''}`,
    );
}

/** `tollgate install <agent>`. */
export function registerInstall(program: Command, io: () => CommandIo = processIo): void {
  declare(
    program
      .command('install')
      .summary("add tollgate's stop hook and MCP server to an agent's config")
      .description(
        "Merges the stop hook (`tollgate hook stop --agent <agent>`) and the tollgate MCP server into the agent's config files, for this project (default) or for your user. It never overwrites: an entry with the same command, or an MCP server already named tollgate, is left as it is; comments and formatting are kept; each file is backed up to ~/.tollgate/backups/ before its first change. For Codex it also trusts the hook (hash from `codex app-server`). `tollgate uninstall` removes exactly what was added.",
      ),
    'install',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate install claude
  $ tollgate install cursor --project
  $ tollgate install gemini --user --bin "npx tollgate"`,
    )
    .action(editAction(io, 'installAgent'));
}

/** `tollgate uninstall <agent>`. */
export function registerUninstall(program: Command, io: () => CommandIo = processIo): void {
  declare(
    program
      .command('uninstall')
      .summary("remove exactly what `tollgate install` added to an agent's config")
      .description(
        'Removes the entries `tollgate install <agent>` recorded (in ~/.tollgate/installed.json) for that scope, and nothing else: entries changed by hand since are left, and files tollgate created are deleted once empty. Each file is backed up first.',
      ),
    'uninstall',
  )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate uninstall claude
  $ tollgate uninstall codex --user`,
    )
    .action(editAction(io, 'uninstallAgent'));
}

/** The shared action of `install` and `uninstall`: parse flags, run the edit, print what changed where. */
function editAction(io: () => CommandIo, edit: 'installAgent' | 'uninstallAgent') {
  return async (agent: string, rawFlags: unknown): Promise<void> => {
    const flags = parseFlags(installFlags, rawFlags);
    const { cwd, env, write } = io();
    const module = await import('../../integrations/hooks/install.js');
    try {
      const lines = await module[edit]({
        agent: parseAgent(agent),
        scope: flags.user ? 'user' : 'project',
        cwd,
        env: env as NodeJS.ProcessEnv,
        home: homeOf(env as NodeJS.ProcessEnv),
        ...(flags.bin ? { bin: flags.bin } : {}),
        progress: (line) => void process.stderr.write(`${line}\n`),
      });
      write(`${lines.join('\n')}\n`);
    } catch (error) {
      // What was written is reported all the same; the error then says what did not take effect (exit code 5).
      if (error instanceof module.InstallNotInEffectError) write(`${error.lines.join('\n')}\n`);
      throw error;
    }
  };
}
