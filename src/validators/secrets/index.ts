import { defineTool } from '../../core/pipeline/tool.js';
import { SECRETLINT_FILES } from '../../secrets/imported-suppressions.js';
import { type SecretsOptions, secretsInputSchema, secretsOptionsSchema } from '../../secrets/options.js';

export const secretsTool = defineTool({
  name: 'secrets',
  title: 'Secret scanning',
  description:
    'Finds credentials (provider tokens, private keys, passwords in config and code, URLs with passwords) that the ' +
    'change adds, and fails with their locations and types; the secrets themselves are never shown. Call it before ' +
    'declaring a change done, or with `paths` to check files you are about to write. No change is trivial for it.',
  configKey: 'secrets',
  optionsSchema: secretsOptionsSchema(),
  inputSchema: secretsInputSchema,
  permissions: [],
  enabledByDefault: true,
  mayUseNetwork: (options) => options.verify === true,
  scopeOf: (input) => (input.paths?.length ? `paths ${input.paths.join(', ')}` : null),
  readsHistory: true,
  policyFiles: suppressionFiles,
  run: async (ctx) => (await import('./run-secrets.js')).runSecrets(ctx),
});

/**
 * What decides which secrets do not block: the baseline (unless in tollgate's own local `.tollgate/`), the gitleaks
 * config and ignore list, the secretlint config. Each is policy: the gate reads it as the base has it.
 */
function suppressionFiles(options: SecretsOptions): string[] {
  const files: string[] = [];
  if (!options.baseline.startsWith('.tollgate/')) files.push(options.baseline);
  if (options.gitleaksConfig) files.push(options.gitleaksConfig);
  if (options.gitleaksIgnore !== false) files.push(options.gitleaksIgnore ?? '.gitleaksignore');
  if (options.secretlintConfig !== false)
    files.push(...(options.secretlintConfig ? [options.secretlintConfig] : SECRETLINT_FILES));
  return files;
}
