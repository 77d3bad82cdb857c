import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { TollgateError } from '../core/errors.js';
import { compileCustomRule } from './custom-rules.js';
import { importGitleaksConfig } from './gitleaks-config.js';
import type { SecretsOptions } from './options.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';

export interface LoadedScanner {
  scanner: SecretScanner;
  /** Why parts of an imported gitleaks config were left out. */
  notes: string[];
}

/** Built-in rules, then config `secrets.rules`, then an imported gitleaks config. */
export async function loadScanner(repoRoot: string, options: SecretsOptions): Promise<LoadedScanner> {
  const rules: SecretRule[] = [...builtinRules, ...options.rules.map(compileCustomRule)];
  if (!options.gitleaksConfig) return { scanner: new SecretScanner(rules), notes: [] };
  const path = isAbsolute(options.gitleaksConfig) ? options.gitleaksConfig : join(repoRoot, options.gitleaksConfig);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new TollgateError(
      'config',
      `secrets.gitleaksConfig: cannot read ${JSON.stringify(options.gitleaksConfig)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const imported = importGitleaksConfig(text, options.gitleaksConfig);
  return { scanner: new SecretScanner([...rules, ...imported.rules], imported.allowlist), notes: imported.notes };
}
