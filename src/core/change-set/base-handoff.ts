import { resolve } from 'node:path';
import type { ChangeSetBase } from './types.js';

/**
 * The default base (no `--base`, no config `base:`) that reading the policy resolved and pinned, handed to the run's
 * change set so that both use one answer and the run spawns `for-each-ref` and `merge-base` once, not twice.
 *
 * Taken at most once (by the first change set, whatever base it names), and used only when the work tree, HEAD (read again by the taker) and the trusted commits are the
 * ones it was resolved at: the later change sets of the same process (the tree recheck after the validators, gate
 * status) resolve the base from git again.
 */
interface HandedBase {
  head: string;
  trusted: string;
  base: ChangeSetBase;
}

const handed = new Map<string, HandedBase>();

export function handOffBase(
  root: string,
  head: string | null,
  trusted: readonly string[] | undefined,
  base: ChangeSetBase,
) {
  if (head === null) return;
  handed.set(resolve(root), { head, trusted: trustedKey(trusted), base });
}

/** The handed base when it was resolved at this HEAD with these trusted commits; null otherwise. Forgets it either way. */
export function takeHandedBase(
  root: string,
  head: string | null,
  trusted: readonly string[] | undefined,
): ChangeSetBase | null {
  const key = resolve(root);
  const entry = handed.get(key);
  handed.delete(key);
  if (!entry || head === null || entry.head !== head || entry.trusted !== trustedKey(trusted)) return null;
  return entry.base;
}

function trustedKey(trusted: readonly string[] | undefined): string {
  return trusted === undefined ? '-' : trusted.join(',');
}
