import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import {
  parseJsonShape,
  parseJsonText,
  readTextIfPresent,
  type WriteFileAtomicOptions,
  writeFileAtomic,
} from './atomic-write.js';
import { checkSignatureOfText, type SignedKind, signObject, unsigned } from './signed-json.js';
import { loadStateKey, readStateKeyIfPresent } from './state-key.js';

export type SignedJsonRead<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  /** Not JSON, or not the expected shape. */
  | { kind: 'corrupt'; problem: string }
  /** Written by a tollgate from before signatures: treated as absent, not as an error. */
  | { kind: 'unsigned' }
  /** Its signature does not match: edited outside tollgate (or signed with another user's key). Never trusted. */
  | { kind: 'forged' };

/** Reads a file written by `writeSignedJsonFile`, checking its signature before its shape. */
export async function readSignedJsonFile<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  kind: SignedKind,
): Promise<SignedJsonRead<z.output<Schema>>> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return { kind: 'missing' };
  const json = parseJsonText(text);
  if (json.kind === 'corrupt') return json;
  const signature = checkSignatureOfText(kind, text, json.value, await readStateKeyIfPresent());
  if (signature !== 'valid') return { kind: signature };
  return parseJsonShape(unsigned(json.value), schema);
}

/**
 * A signed JSON object whose signature holds under `key`; null when the file is missing, unreadable, not JSON or not
 * signed with it. For the fast paths, which load no zod: they check only the fields they read.
 */
export async function readVerifiedJson(
  path: string,
  kind: SignedKind,
  key: Buffer,
): Promise<Record<string, unknown> | null> {
  try {
    const text = await readFile(path, 'utf8');
    const value: unknown = JSON.parse(text);
    return checkSignatureOfText(kind, text, value, key) === 'valid' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Signs `value` with the user's state key (creating the key on first use) and writes it atomically. */
export async function writeSignedJsonFile(
  path: string,
  kind: SignedKind,
  value: object,
  options: WriteFileAtomicOptions & { indent?: number } = {},
): Promise<void> {
  const signed = signObject(kind, value, await loadStateKey());
  await writeFileAtomic(path, `${JSON.stringify(signed, null, options.indent ?? 2)}\n`, options);
}

/** The one line a refused file gets: what was found and what tollgate does instead. */
export function forgedFileMessage(label: string, consequence: string): string {
  return `${label}: its signature does not match (edited outside tollgate, or made under another user's key), so it is not trusted; ${consequence}`;
}
