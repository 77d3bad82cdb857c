import type { ChangedFile, RepoChangeSet } from '../../src/core/change-set/types.js';

/**
 * A change set given as data, for unit tests of code that only reads one (the pipeline, reports). Tests of the change
 * set itself, and end-to-end runs, use real repositories.
 */
export function staticChangeSet(
  root: string,
  files: Record<string, string> = {},
  extra: Partial<ChangedFile> = {},
): RepoChangeSet {
  const changed: ChangedFile[] = Object.entries(files).map(([path, text]) => {
    const lines = text.split('\n').length;
    return {
      path,
      status: 'added',
      binary: false,
      addedLines: [{ start: 1, end: lines }],
      changedLines: [{ start: 1, end: lines }],
      size: Buffer.byteLength(text),
      ...extra,
    };
  });
  return {
    root,
    base: { ref: 'HEAD', commit: '0'.repeat(40), source: 'head' },
    files: changed,
    ignored: [],
    skipped: [],
    fingerprint: `static-${Object.keys(files).join(',')}`,
    isEmpty: changed.length === 0,
    head: null,
    hasCommits: false,
    readText: async (path) => files[path] ?? null,
    readBytes: async (path) => (files[path] === undefined ? null : Buffer.from(files[path]!)),
    diff: async () => '',
  };
}
