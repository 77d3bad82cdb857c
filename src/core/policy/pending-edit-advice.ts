import type { Reader } from '../reader.js';

/**
 * What ends a pending policy edit (docs/policy.md), in the words its reader may act on. A person is given the command
 * and, where the base comes from a remote branch, that merging the edit there does it too; an agent is told only
 * that a person must accept it.
 */
export interface PendingEditAdvice {
  reader: Reader;
  /** The edited policy files. */
  paths: readonly string[];
  /** The remote branch the base follows (`origin/main`), when it follows one: merging the edit there applies it. */
  remote?: string | null;
}

/** One sentence: how the edit applies, or how to go on without it. */
export function whatEndsPendingEdit(advice: PendingEditAdvice): string {
  const them = advice.paths.length === 1 ? 'it' : 'them';
  if (advice.reader === 'agent') {
    return `Only a person can accept a policy edit (${advice.paths.join(', ')}): tell the user it is pending; a waiver does not end it. To go on without ${them}, restore the file${advice.paths.length === 1 ? '' : 's'} as the base has ${them}.`;
  }
  const merge = advice.remote ? `, or merge ${them} into \`${advice.remote}\`` : '';
  return `To apply your policy edit${advice.paths.length === 1 ? '' : 's'} (${advice.paths.join(', ')}), run \`tollgate policy accept\` (it shows the edit and asks you to confirm)${merge}; to drop ${them}, restore the file${advice.paths.length === 1 ? '' : 's'} as the base has ${them}.`;
}
