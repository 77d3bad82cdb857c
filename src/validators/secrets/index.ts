import { defineTool } from '../../core/pipeline/tool.js';
import { secretsInputSchema, secretsOptionsSchema } from '../../secrets/options.js';

export const secretsTool = defineTool({
  name: 'secrets',
  title: 'Secret scanning',
  description:
    'Finds credentials (provider tokens, private keys, passwords in config and code, URLs with passwords) that the ' +
    'change adds, and fails with their locations and types; the secrets themselves are never shown. Call it before ' +
    'declaring a change done, or with `paths` to check files you are about to write. No change is trivial for it.',
  configKey: 'secrets',
  optionsSchema: secretsOptionsSchema,
  inputSchema: secretsInputSchema,
  permissions: [],
  enabledByDefault: true,
  mayUseNetwork: (options) => options.verify === true,
  scopeOf: (input) => (input.paths?.length ? `paths ${input.paths.join(', ')}` : null),
  readsHistory: true,
  run: async (ctx) => (await import('./run-secrets.js')).runSecrets(ctx),
});
