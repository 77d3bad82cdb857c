import { commitMessagePath } from '../../commit-message-place.js';
import type { CatFileReads } from './cat-file-targets.js';

/**
 * The messages of the commits a history scan reads: a pushed message is as public as its diff. Each commit is read
 * as git stores it (`git cat-file --batch`: no re-encoding, nothing cut at a NUL) and its message, what follows the
 * header's first empty line, is decoded as the tree's files are (text in any encoding we read, else printable runs).
 */
export function commitMessageReads(commits: readonly string[]): CatFileReads {
  return {
    names: commits,
    onObject: (object, index) => {
      const commit = commits[index]!;
      const path = commitMessagePath(commit);
      if (object.missing)
        return { path, commit, read: async () => null, skip: { reason: 'unreadable', detail: 'commit missing' } };
      if (object.content === null)
        return {
          path,
          commit,
          read: async () => null,
          skip: { reason: 'too_large', detail: `${(object.size / 1e6).toFixed(1)} MB commit object` },
        };
      const message = messageOf(object.content);
      if (message.length === 0) return null;
      // Scanned as text, as the added lines are: one of the scanner's paths warmed, not two (see `scanAsText`). One
      // object made per message (no spread, no async function): there are thousands of them.
      const read = () => Promise.resolve(message);
      return { path, commit, scanAsText: true, content: message, read };
    },
  };
}

/** As bytes: a string needle is made into bytes again at every search. */
const HEADER_END = Buffer.from('\n\n');

/** What follows the header: continuation lines of a header start with a space, so the first empty line ends it. */
function messageOf(commit: Buffer): Buffer {
  const end = commit.indexOf(HEADER_END);
  return end === -1 ? Buffer.alloc(0) : commit.subarray(end + 2);
}
