import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { TollgateError } from '../core/errors.js';
import type { AllowPattern, IgnoredPlace, ImportedSuppressions } from './imported-match.js';
import { superLinearReason } from './redos.js';

/**
 * Reads a file's bytes, null when there is none. The gate passes the policy's reader (docs/policy.md), so a file the
 * change edited is read as the base has it; without one, the file on disk.
 */
export type PolicyFileReader = (absolute: string) => Promise<Buffer | null>;

export const readFromDisk: PolicyFileReader = async (absolute) => {
  try {
    return await readFile(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

export const SECRETLINT_FILES = ['.secretlintrc.json', '.secretlintrc', '.secretlintrc.yaml', '.secretlintrc.yml'];
const SECRETLINT_SCRIPTS = ['.secretlintrc.js', '.secretlintrc.cjs', '.secretlintrc.mjs'];

export interface ImportSettings {
  /** `secrets.gitleaksIgnore`: a path, `false` to ignore, or absent for `.gitleaksignore` when it exists. */
  gitleaksIgnore?: string | false | undefined;
  /** `secrets.secretlintConfig`: a path, `false`, or absent for the first `.secretlintrc*` that exists. */
  secretlintConfig?: string | false | undefined;
}

/** Reads both files; a missing default file is no suppressions, a configured one that is missing is an error. */
export async function loadImportedSuppressions(
  repoRoot: string,
  settings: ImportSettings,
  read: PolicyFileReader = readFromDisk,
): Promise<{ imported: ImportedSuppressions; notes: string[] }> {
  const notes: string[] = [];
  const places = new Map<string, IgnoredPlace[]>();
  const allows: AllowPattern[] = [];
  const files: string[] = [];
  const gitleaks = await readChosen(
    { repoRoot, read },
    settings.gitleaksIgnore,
    ['.gitleaksignore'],
    'secrets.gitleaksIgnore',
  );
  if (gitleaks) {
    files.push(gitleaks.file);
    for (const place of parseGitleaksIgnore(gitleaks.text, gitleaks.file)) {
      const list = places.get(place.path) ?? [];
      list.push(place);
      places.set(place.path, list);
    }
  }
  const secretlint = await readChosen(
    { repoRoot, read },
    settings.secretlintConfig,
    SECRETLINT_FILES,
    'secrets.secretlintConfig',
  );
  if (secretlint) {
    files.push(secretlint.file);
    allows.push(...parseSecretlintAllows(secretlint.text, secretlint.file, notes));
  } else if (settings.secretlintConfig === undefined) {
    const script = await firstExisting({ repoRoot, read: readFromDisk }, SECRETLINT_SCRIPTS);
    if (script) notes.push(`${script.file}: secretlint JavaScript configs are not read; its allows are not imported`);
  }
  return { imported: { places, allows, files }, notes };
}

/**
 * gitleaks writes `commit:file:rule-id:line` for git scans and `file:rule-id:line` for directory scans. The file may
 * itself hold colons, so the line and rule id are taken from the end and a commit only from a full hex prefix.
 */
export function parseGitleaksIgnore(text: string, label: string): Array<IgnoredPlace & { path: string }> {
  const places: Array<IgnoredPlace & { path: string }> = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const entry = raw.trim();
    if (entry === '' || entry.startsWith('#')) return;
    const where = `${label}:${index + 1}`;
    const parts = entry.split(':');
    const line = Number(parts.pop());
    const ruleId = parts.pop() ?? '';
    if (!Number.isInteger(line) || line < 1 || ruleId === '' || parts.length === 0) {
      throw new TollgateError(
        'config',
        `${where}: not a gitleaks fingerprint; expected "file:rule-id:line" or "commit:file:rule-id:line"`,
      );
    }
    const commit = parts.length > 1 && /^[0-9a-f]{7,64}$/i.test(parts[0]!) ? parts.shift()!.toLowerCase() : undefined;
    const path = parts.join(':').replace(/^\.\//, '');
    places.push({ path, line, ruleId, source: where, ...(commit ? { commit } : {}) });
  });
  return places;
}

const secretlintRule: z.ZodType<SecretlintRule> = z.lazy(() =>
  z
    .object({
      id: z.string().optional(),
      options: z
        .object({ allows: z.array(z.string()).optional() })
        .passthrough()
        .optional(),
      rules: z.array(secretlintRule).optional(),
    })
    .passthrough(),
);
interface SecretlintRule {
  id?: string | undefined;
  options?: { allows?: string[] | undefined } | undefined;
  rules?: SecretlintRule[] | undefined;
}
const secretlintConfig = z.object({ rules: z.array(secretlintRule).default([]) }).passthrough();

/** Every `allows` entry of every rule and preset; the rule it sat under is not ours, so each applies to all rules. */
export function parseSecretlintAllows(text: string, label: string, notes: string[]): AllowPattern[] {
  const parsed = secretlintConfig.safeParse(parseConfigText(text, label));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TollgateError(
      'config',
      `${label}: ${issue.path.join('.') || 'the file'}: ${issue.message} (expected secretlint's {"rules":[{"id":…,"options":{"allows":[…]}}]})`,
    );
  }
  const allows: AllowPattern[] = [];
  const visit = (rules: readonly SecretlintRule[], at: string) =>
    rules.forEach((rule, index) => {
      const where = `${at}[${index}]`;
      (rule.options?.allows ?? []).forEach((entry, position) => {
        allows.push(allowPattern(entry, `${label} ${where}.options.allows[${position}]`));
      });
      if (rule.rules) visit(rule.rules, `${where}.rules`);
    });
  visit(parsed.data.rules, 'rules');
  if (allows.length === 0) notes.push(`${label}: no allows to import`);
  return allows;
}

/** secretlint's "RegExp-like string": `/source/flags` is a pattern, anything else a literal found anywhere. */
function allowPattern(entry: string, where: string): AllowPattern {
  const source = `${where} ${JSON.stringify(entry)}`;
  const regexLike = /^\/(.+)\/([dgimsuy]*)$/s.exec(entry);
  if (!regexLike) return { literal: entry, source };
  const [, pattern, flags] = regexLike;
  let regex: RegExp;
  try {
    regex = new RegExp(pattern!, flags!.replace(/[gy]/g, ''));
  } catch (error) {
    throw new TollgateError('config', `${where}: not a valid regular expression: ${(error as Error).message}`);
  }
  const slow = superLinearReason(regex.source, regex.flags);
  if (slow) throw new TollgateError('config', `${where}: may take super-linear time (${slow}); simplify the pattern`);
  return { regex, source };
}

function parseConfigText(text: string, label: string): unknown {
  if (/\.ya?ml$/.test(label)) {
    try {
      return parseYaml(text);
    } catch (error) {
      throw new TollgateError('config', `${label}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const errors: Parameters<typeof parseJsonc>[1] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  const first = errors?.[0];
  if (first) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw new TollgateError('config', `${label}:${line}: not valid JSON (${printParseErrorCode(first.error)})`);
  }
  return value;
}

interface ReadFrom {
  repoRoot: string;
  read: PolicyFileReader;
}

async function readChosen(
  from: ReadFrom,
  chosen: string | false | undefined,
  defaults: readonly string[],
  field: string,
): Promise<{ file: string; text: string } | null> {
  if (chosen === false) return null;
  if (chosen === undefined) return firstExisting(from, defaults);
  const absolute = isAbsolute(chosen) ? chosen : join(from.repoRoot, chosen);
  let bytes: Buffer | null;
  try {
    bytes = await from.read(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new TollgateError('config', `${field}: cannot read ${JSON.stringify(chosen)} (${code})`);
  }
  if (bytes === null) throw new TollgateError('config', `${field}: cannot read ${JSON.stringify(chosen)} (ENOENT)`);
  return { file: repoRelative(from.repoRoot, absolute), text: bytes.toString('utf8') };
}

async function firstExisting(from: ReadFrom, names: readonly string[]): Promise<{ file: string; text: string } | null> {
  for (const name of names) {
    const bytes = await from.read(join(from.repoRoot, name)).catch(() => null);
    if (bytes !== null) return { file: name, text: bytes.toString('utf8') };
  }
  return null;
}

function repoRelative(repoRoot: string, absolute: string): string {
  const rel = relative(repoRoot, absolute);
  return rel.startsWith('..') || isAbsolute(rel) ? absolute : rel.split(sep).join('/');
}
