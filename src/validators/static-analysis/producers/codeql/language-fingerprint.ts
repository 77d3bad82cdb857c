import { createHash } from 'node:crypto';
import type { ChangedFile, RepoChangeSet } from '../../../../core/change-set/types.js';
import { compareText } from '../../../../core/text-order.js';

/**
 * What a language's analysis depends on: the base commit, the analysis settings, and every changed file of that
 * language (path, status and content). Equal fingerprints mean nothing of that language changed since.
 */
export async function languageFingerprint(options: {
  changeSet: Pick<RepoChangeSet, 'base' | 'readBytes'>;
  files: readonly Pick<ChangedFile, 'path' | 'status'>[];
  settings: string;
}): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${options.changeSet.base.commit ?? 'none'}\0${options.settings}\0`);
  for (const file of [...options.files].sort((a, b) => compareText(a.path, b.path))) {
    const bytes = file.status === 'deleted' ? null : await options.changeSet.readBytes(file.path);
    const content = bytes ? createHash('sha256').update(bytes).digest('hex') : 'none';
    hash.update(`${file.path}\0${file.status}\0${content}\0`);
  }
  return hash.digest('hex');
}
