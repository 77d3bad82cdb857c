import type { RuleEntry } from './lazy-rule.js';
import { sharedSecretScanner } from './redact.js';
import type { SecretRule } from './rule.js';
import { builtinRuleTable } from './rules/table.js';
import type { GlobalAllowlist } from './scan-text-options.js';
import { SecretScanner } from './scanner.js';
import { uniformRule } from './uniform-rule.js';

/**
 * What a scanner is built from, as data: the main thread reads and checks the config and the imported gitleaks config
 * (`loadScanner`), and sends this to each scan worker (plain objects, strings and regular expressions, which
 * structured cloning copies), so a worker builds the same scanner without loading a config parser or reading a file:
 * zod, yaml, jsonc-parser and smol-toml in the worker's bundle cost it 70-90 ms of CPU at each start
 * (docs/benchmarks.md).
 */
export interface ScannerRules {
  /** `secrets.encryptedKeys: ignore`: the passphrase-protected key rules are left out. */
  withoutEncryptedKeys: boolean;
  /** Config `secrets.rules` compiled, then an imported gitleaks config's rules, after the built-in ones. */
  extra: SecretRule[];
  /** An imported gitleaks config's global allowlist; absent without one. */
  allowlist?: GlobalAllowlist;
}

export function buildScanner(rules: ScannerRules): SecretScanner {
  if (!rules.withoutEncryptedKeys && rules.extra.length === 0 && rules.allowlist === undefined) {
    // The built-in rules alone are the scanner that masks output: built once (its keyword automata and compiled rules
    // cost tens of milliseconds of CPU), shared.
    return sharedSecretScanner();
  }
  const builtin = rules.withoutEncryptedKeys
    ? builtinRuleTable.filter((rule) => !rule.passphraseProtected)
    : builtinRuleTable;
  // Custom and imported rules get the built-in rules' one shape too (see `uniformRule`).
  const all: RuleEntry[] = [...builtin, ...rules.extra.map(uniformRule)];
  return rules.allowlist === undefined ? new SecretScanner(all) : new SecretScanner(all, rules.allowlist);
}
