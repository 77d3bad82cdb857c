import { isAbsolute, join } from 'node:path';
import { TollgateError } from '../core/errors.js';
import { compileCustomRule } from './custom-rules.js';
import { importGitleaksConfig } from './gitleaks-config.js';
import {
  type ImportedSuppressions,
  loadImportedSuppressions,
  type PolicyFileReader,
  readFromDisk,
} from './imported-suppressions.js';
import type { RuleEntry } from './lazy-rule.js';
import type { SecretsOptions } from './options.js';
import { sharedSecretScanner } from './redact.js';
import { builtinRuleTable } from './rules/table.js';
import { SecretScanner } from './scanner.js';
import { uniformRule } from './uniform-rule.js';

export interface LoadedScanner {
  scanner: SecretScanner;
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
  const builtin =
    options.encryptedKeys === 'ignore'
      ? builtinRuleTable.filter((rule) => !rule.passphraseProtected)
      : builtinRuleTable;
  // Custom and imported rules get the built-in rules' one shape too (see `uniformRule`).
  const rules: RuleEntry[] = [...builtin, ...options.rules.map((rule) => uniformRule(compileCustomRule(rule)))];
  if (!options.gitleaksConfig) {
    // The built-in rules alone are the scanner that masks output: built once (its keyword automata and compiled rules
    // cost tens of milliseconds of CPU), shared.
    const builtinOnly = rules.length === builtinRuleTable.length && builtin === builtinRuleTable;
    return { scanner: builtinOnly ? sharedSecretScanner() : new SecretScanner(rules), notes, imported };
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
  return {
    scanner: new SecretScanner([...rules, ...gitleaks.rules.map(uniformRule)], gitleaks.allowlist),
    notes: [...notes, ...gitleaks.notes],
    imported,
  };
}
