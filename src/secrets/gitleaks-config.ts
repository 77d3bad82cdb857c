import { TollgateError } from '../core/errors.js';
import type { Severity } from '../core/finding.js';
import { superLinearReason } from './redos.js';
import { NO_SAMPLES, type SecretRule } from './rule.js';
import { parseTomlDocument, type TomlTable } from './toml-document.js';

/**
 * Imports a gitleaks config (https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml): `[[rules]]` with
 * `id`, `description`, `regex`, `secretGroup`, `entropy`, `keywords`, per-rule allowlists, and the global
 * `[allowlist]` / `[[allowlists]]`. Go regex syntax is translated where JavaScript differs; a rule that still does
 * not compile is left out with a note, never a crash.
 */
export interface ImportedGitleaksConfig {
  rules: SecretRule[];
  /** Applies to every rule: files to skip, secrets to ignore. */
  allowlist: { paths: RegExp[]; regexes: RegExp[]; stopwords: string[] };
  /** One line per rule or pattern that could not be imported, naming it and why. */
  notes: string[];
}

export function importGitleaksConfig(text: string, label: string): ImportedGitleaksConfig {
  const document = parseTomlDocument(text, label);
  const notes: string[] = [];
  const rules: SecretRule[] = [];
  const rawRules = arrayOfTables(document.rules);
  rawRules.forEach((raw, index) => {
    const where = `${label} rules[${index}]`;
    const id = typeof raw.id === 'string' ? raw.id : `gitleaks-rule-${index + 1}`;
    if (typeof raw.regex !== 'string') {
      notes.push(`${where} (${id}): no regex (path-only rules are not imported)`);
      return;
    }
    const pattern = goRegex(raw.regex);
    if (!pattern.ok) {
      notes.push(`${where} (${id}): regex not importable: ${pattern.reason}`);
      return;
    }
    const slow = superLinearReason(pattern.regex.source, pattern.regex.flags);
    if (slow) {
      throw new TollgateError(
        'config',
        `${where} (${id}): regex may take super-linear time (${slow}); fix or remove the rule in ${label}`,
      );
    }
    const allowlists = [...arrayOfTables(raw.allowlists), ...(isTable(raw.allowlist) ? [raw.allowlist] : [])];
    const allow = mergeAllowlists(allowlists, `${where}.allowlist`, notes);
    rules.push({
      id: `gitleaks-${id}`.replace(/[^a-z0-9-]+/gi, '-').toLowerCase(),
      title: typeof raw.description === 'string' ? raw.description : id,
      severity: 'high' satisfies Severity,
      keywords: stringArray(raw.keywords),
      pattern: pattern.regex,
      ...(typeof raw.entropy === 'number' ? { entropy: raw.entropy } : {}),
      ...(typeof raw.secretGroup === 'number' ? { secretGroup: raw.secretGroup } : {}),
      allowlist: allow,
      samples: NO_SAMPLES,
    });
  });
  const globals = [...(isTable(document.allowlist) ? [document.allowlist] : []), ...arrayOfTables(document.allowlists)];
  const allowlist = mergeAllowlists(globals, `${label} allowlist`, notes);
  return {
    rules,
    allowlist: {
      paths: [...(allowlist.paths ?? [])],
      regexes: [...(allowlist.regexes ?? [])],
      stopwords: [...(allowlist.stopwords ?? [])],
    },
    notes,
  };
}

function mergeAllowlists(tables: TomlTable[], where: string, notes: string[]) {
  const regexes: RegExp[] = [];
  const paths: RegExp[] = [];
  const stopwords: string[] = [];
  for (const table of tables) {
    for (const source of stringArray(table.regexes)) {
      const compiled = goRegex(source);
      if (compiled.ok) regexes.push(compiled.regex);
      else notes.push(`${where}.regexes ${JSON.stringify(source)}: ${compiled.reason}`);
    }
    for (const source of stringArray(table.paths)) {
      const compiled = goRegex(source);
      if (compiled.ok) paths.push(compiled.regex);
      else notes.push(`${where}.paths ${JSON.stringify(source)}: ${compiled.reason}`);
    }
    stopwords.push(...stringArray(table.stopwords).map((word) => word.toLowerCase()));
  }
  return { regexes, paths, stopwords };
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  digit: '0-9',
  xdigit: '0-9A-Fa-f',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  punct: '!-\\/:-@\\[-`{-~',
  word: '\\w',
};

/** Go RE2 → JavaScript: `(?i)` becomes the `i` flag, `(?P<n>` becomes `(?<n>`, POSIX classes and `\z` are spelled out. */
export function goRegex(source: string): { ok: true; regex: RegExp } | { ok: false; reason: string } {
  let flags = '';
  let text = source;
  if (/\(\?[a-z]*i[a-z]*\)/.test(text)) {
    flags += 'i';
    text = text.replace(/\(\?[a-z]*i[a-z]*\)/g, '');
  }
  if (/\(\?[a-z]*s[a-z]*\)/.test(text)) {
    flags += 's';
    text = text.replace(/\(\?[a-z]*s[a-z]*\)/g, '');
  }
  text = text
    .replace(/\(\?P</g, '(?<')
    .replace(/\(\?-?[imsU]+:/g, '(?:')
    .replace(/\\z/g, '$')
    .replace(/\\A/g, '^')
    .replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole);
  try {
    return { ok: true, regex: new RegExp(text, flags) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOfTables(value: unknown): TomlTable[] {
  return Array.isArray(value) ? value.filter(isTable) : [];
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
