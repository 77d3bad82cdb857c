import { defineTool } from '../../core/pipeline/tool.js';
import { advisoriesInputSchema, advisoriesOptionsSchema } from './options.js';

export const advisoriesTool = defineTool({
  name: 'advisories',
  title: 'Dependency advisories',
  description:
    'Checks dependencies against advisory databases (OSV, GitHub, or an offline OSV copy). Without input it checks the ' +
    'dependencies the change added or upgraded in lockfiles and manifests; call it with packages: ["npm:lodash@4.17.15"] ' +
    'before adding a dependency. A change that touches no lockfile or manifest is trivial for it; any lockfile change never is. ' +
    'An unreachable database is reported as unavailable, never as a pass.',
  configKey: 'advisories',
  optionsSchema: advisoriesOptionsSchema,
  inputSchema: advisoriesInputSchema,
  permissions: ['network'],
  enabledByDefault: true,
  scopeOf: (input) => (input.packages?.length ? `packages ${input.packages.join(', ')}` : null),
  // The implementation loads only when the tool runs, so that assembling the registry stays cheap.
  run: async (ctx) => (await import('./run-advisories.js')).runAdvisories(ctx),
});
