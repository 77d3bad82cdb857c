import { isAbsolute, join } from 'node:path';
import { TollgateError } from '../core/errors.js';
import { compileCustomRule } from './custom-rules.js';
import { importGitleaksConfig } from './gitleaks-config.js';
import type { ImportedSuppressions } from './imported-match.js';
import { loadImportedSuppressions, type PolicyFileReader, readFromDisk } from './imported-suppressions.js';
import type { SecretsOptions } from './options.js';
import type { SecretScanner } from './scanner.js';
import { buildScanner, type ScannerRules } from './scanner-rules.js';

export interface LoadedScanner {
  scanner: SecretScanner;
  /** What `scanner` is built from, as data a scan worker is sent (`buildScanner`). */
  rules: ScannerRules;
  /** Why parts of an imported gitleaks or secretlint config were left out. */
  notes: string[];
  /** `.gitleaksignore` entries and secretlint `allows`, applied as listed suppressions. */
  imported: ImportedSuppressions;
}

/**
 * Built-in rules, then config `secrets.rules`, then an imported gitleaks config; and the suppressions other scanners'
 * files hold.
 */
export async function loadScanner(
  repoRoot: string,
  options: SecretsOptions,
  read: PolicyFileReader = readFromDisk,
): Promise<LoadedScanner> {
  const { imported, notes } = await loadImportedSuppressions(repoRoot, options, read);
  const withoutEncryptedKeys = options.encryptedKeys === 'ignore';
  const custom = options.rules.map(compileCustomRule);
  if (!options.gitleaksConfig) {
    const rules: ScannerRules = { withoutEncryptedKeys, extra: custom };
    return { scanner: buildScanner(rules), rules, notes, imported };
  }
  const path = isAbsolute(options.gitleaksConfig) ? options.gitleaksConfig : join(repoRoot, options.gitleaksConfig);
  const bytes = await read(path).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
  if (bytes === null || typeof bytes === 'string') {
    throw new TollgateError(
      'config',
      `secrets.gitleaksConfig: cannot read ${JSON.stringify(options.gitleaksConfig)} (${bytes ?? 'ENOENT'})`,
    );
  }
  const text = bytes.toString('utf8');
  const gitleaks = importGitleaksConfig(text, options.gitleaksConfig);
  const rules: ScannerRules = {
    withoutEncryptedKeys,
    extra: [...custom, ...gitleaks.rules],
    allowlist: gitleaks.allowlist,
  };
  return { scanner: buildScanner(rules), rules, notes: [...notes, ...gitleaks.notes], imported };
}
