import { parse, TomlError } from 'smol-toml';
import { TollgateError } from '../core/errors.js';

export type TomlTable = Record<string, unknown>;

/** A TOML document (a gitleaks config); a syntax error is a config error naming `label:line:col`. */
export function parseTomlDocument(text: string, label: string): TomlTable {
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message repeats the offending line with a caret after its first line; the position says it.
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    throw new TollgateError('config', `${label}:${error.line}:${error.column}: ${reason}`);
  }
}
