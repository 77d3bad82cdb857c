import { parse as parseToml, TomlError } from 'smol-toml';

/**
 * What `tollgate init` proposes as a check, and why. Detection reads a few files at the repository root and never runs
 * anything: each ecosystem's reader is a pure function of those files' texts.
 */

/** What a check is for; two proposals of one kind in one ecosystem would run the same thing twice. */
export type CheckKind = 'test' | 'lint' | 'typecheck' | 'check';

export interface CheckCandidate {
  kind: CheckKind;
  /** The check's name in the config (`checks[].name`). */
  name: string;
  /** The command (`checks[].run`). */
  run: string;
  /** Where it came from, for init's output and the config's comment: `package.json scripts.test; npm from package-lock.json`. */
  source: string;
}

export interface EcosystemFindings {
  /** The ecosystem's proposals, most preferred first within a kind. */
  candidates: CheckCandidate[];
  /** Files skipped or proposals left out, each a line for the person reading init's output. */
  notes: string[];
}

/** Root-level file name → its text; a file listed with '' is one whose presence is all that counts (lockfiles). */
export type ProjectFiles = ReadonlyMap<string, string>;

export type EcosystemReader = (files: ProjectFiles) => EcosystemFindings;

export const NO_FINDINGS: EcosystemFindings = { candidates: [], notes: [] };

/** A TOML file's tables, or the one-line note saying where it is broken (`pyproject.toml:1:13 skipped: …`). */
export function parseTomlFile(text: string, file: string): { table: Record<string, unknown> } | { note: string } {
  try {
    return { table: parseToml(text) as Record<string, unknown> };
  } catch (error) {
    const where = error instanceof TomlError ? `${file}:${error.line}:${error.column}` : file;
    return { note: `${where} skipped: not valid TOML (${shortReason(error).replace(/^Invalid TOML document: /, '')})` };
  }
}

/** The reason a parser gave, on one line and short: detection notes are one line each. */
export function shortReason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split('\n')[0]!.trim();
  return first.length > 120 ? `${first.slice(0, 117)}…` : first;
}

/** A plain object (a TOML table, a JSON object), else undefined. */
export function tableAt(value: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return typeof current === 'object' && current !== null && !Array.isArray(current)
    ? (current as Record<string, unknown>)
    : undefined;
}
