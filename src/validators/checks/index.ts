import { z } from 'zod';
import { defineTool } from '../../core/pipeline/tool.js';
import { checksOptionsSchema } from './options.js';

export const checksTool = defineTool({
  name: 'checks',
  title: 'Project checks',
  description:
    "Runs the project's own commands from config `checks` (tests, type checks, linters) on the change. Call it before " +
    'declaring a change done. No change is trivial for it: a check that depends on a changed path always runs.',
  configKey: 'checks',
  optionsSchema: checksOptionsSchema,
  inputSchema: z.object({}).strict(),
  permissions: ['runCommands'],
  enabledByDefault: true,
  mayWaitAlone: (checks) => checks.some((check) => check.exclusive),
  run: async (ctx) => (await import('./run-checks.js')).runChecks(ctx),
});
