import { parse } from 'smol-toml';
import { TollgateError } from '../../core/errors.js';

/**
 * Text-level edits of Codex's config.toml: we append whole tables of our own and remove exactly those again, so the
 * user's comments and layout are never touched. smol-toml only reads, to check what is there and that every result
 * still parses.
 */

/** The marker line above every table we add: says who added it and how it goes away. */
const TOML_MARKER = '# added by `tollgate install codex`; `tollgate uninstall codex` removes it';

export function readToml(text: string, label: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line;
    const column = (error as { column?: number }).column;
    const where = line ? `:${line}:${column ?? 1}` : '';
    const what = ((error as Error).message ?? 'invalid').split('\n')[0];
    throw new TollgateError('config', `${label}${where} not valid TOML (${what}); fix the file, then rerun`);
  }
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

function tomlValue(value: string | number | readonly string[]): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
}

function tableHeader(table: readonly string[]): string {
  return `[${table.map(tomlKey).join('.')}]`;
}

/** Our marker, the header, and one line per value. */
export function tomlBlock(
  table: readonly string[],
  values: Record<string, string | number | readonly string[]>,
): string {
  const lines = [TOML_MARKER, tableHeader(table)];
  for (const [key, value] of Object.entries(values)) lines.push(`${tomlKey(key)} = ${tomlValue(value)}`);
  return `${lines.join('\n')}\n`;
}

export function hasTable(text: string, table: readonly string[], label: string): boolean {
  let current: unknown = readToml(text, label);
  for (const key of table) {
    if (typeof current !== 'object' || current === null) return false;
    current = (current as Record<string, unknown>)[key];
  }
  return current !== undefined;
}

export function appendBlock(text: string, block: string, label: string): string {
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  const next = `${body}${body.trim() === '' ? '' : '\n'}${block}`;
  readToml(next, label);
  return next;
}

/** Removes exactly a block we appended (and the blank line before it); null when it is not there unchanged. */
export function removeBlock(text: string, block: string, label: string): string | null {
  const index = text.indexOf(block);
  if (index < 0) return null;
  const start = index >= 1 && text.slice(0, index).endsWith('\n\n') ? index - 1 : index;
  const next = text.slice(0, start) + text.slice(index + block.length);
  readToml(next, label);
  return next;
}

/**
 * Sets `key = value` inside a table we added earlier (a new trust hash after the hook entry changed). Returns null
 * when the table is not one of ours.
 */
export function replaceInBlock(text: string, oldBlock: string, newBlock: string, label: string): string | null {
  if (!text.includes(oldBlock)) return null;
  const next = text.replace(oldBlock, newBlock);
  readToml(next, label);
  return next;
}
