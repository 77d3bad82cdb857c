import type { RegisterCommand } from './index.js';

type LoadRegistrations = () => Promise<readonly RegisterCommand[]>;

/**
 * Each top-level command's register functions, loaded on demand and listed in the order help shows them: the one list
 * of commands (test/cli/commands-by-name.test.ts checks each name is what its module declares). A command line that
 * names a command loads only that command's module: evaluating every command's flags and schemas cost more than a
 * `tollgate run` on an unchanged tree does itself.
 */
const COMMANDS_BY_NAME: readonly (readonly [string, LoadRegistrations])[] = [
  ['run', async () => [(await import('./run.js')).registerRun]],
  ['log', async () => [(await import('./log.js')).registerLog]],
  ['waive', async () => [(await import('./waive.js')).registerWaive]],
  ['policy', async () => [(await import('./policy.js')).registerPolicy]],
  ['scan', async () => [(await import('./scan.js')).registerScan]],
  ['action-step', async () => [(await import('./action-step.js')).registerActionStep]],
  ['agents', async () => [(await import('./agents.js')).registerAgents]],
  ['advisories', async () => [(await import('./advisories.js')).registerAdvisories]],
  ['comments', async () => [(await import('./comments.js')).registerComments]],
  ['fix-comments', async () => [(await import('./fix-comments.js')).registerFixComments]],
  ['validate-alert', async () => [(await import('./validate-alert.js')).registerValidateAlert]],
  ['alerts', async () => [(await import('./alerts.js')).registerAlerts]],
  ['evals', async () => [(await import('./evals.js')).registerEvals]],
  ['mcp', async () => [(await import('./mcp.js')).registerMcp]],
  [
    'hook',
    async () => {
      const [hook, scan] = await Promise.all([import('./hook.js'), import('./scan.js')]);
      return [hook.registerHookStop, scan.registerHookPreCommit];
    },
  ],
  ['install', async () => [(await import('./install.js')).registerInstall]],
  ['uninstall', async () => [(await import('./uninstall.js')).registerUninstall]],
  ['doctor', async () => [(await import('./doctor.js')).registerDoctor]],
  ['stats', async () => [(await import('./stats.js')).registerStats]],
  ['init', async () => [(await import('./init.js')).registerInit]],
  ['config', async () => [(await import('./config.js')).registerConfig]],
];

/** The command names the table knows, in help order. */
export const COMMAND_NAMES: readonly string[] = COMMANDS_BY_NAME.map(([name]) => name);

/**
 * The register functions a command line needs: only its command's when its first word names one (`run`, `hook`),
 * else every command's (help, a typo that commander answers with a suggestion, no command at all).
 */
export async function registrationsFor(args: readonly string[]): Promise<RegisterCommand[]> {
  const named = COMMANDS_BY_NAME.find(([name]) => name === args[0]);
  const loaders = named ? [named[1]] : COMMANDS_BY_NAME.map(([, load]) => load);
  return (await Promise.all(loaders.map((load) => load()))).flat();
}
