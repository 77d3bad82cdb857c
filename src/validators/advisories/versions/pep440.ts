/**
 * PEP 440 version ordering (https://peps.python.org/pep-0440/#summary-of-permitted-suffixes-and-relative-ordering):
 * epoch, release (trailing zeros do not count), then dev < pre (a < b < rc) < final < post. Local versions
 * (`+ubuntu1`) sort after their public version.
 */
export interface Pep440Parts {
  epoch: number;
  release: number[];
  /** [rank of a/b/rc, number], or null for none. */
  pre: [number, number] | null;
  post: number | null;
  dev: number | null;
  local: string | null;
}

const PEP440 =
  /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|rc|c|pre|preview)[-_.]?(\d*))?(?:(?:-(\d+))|(?:[-_.]?(?:post|rev|r)[-_.]?(\d*)))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/i;

const PRE_RANK: Record<string, number> = { a: 0, alpha: 0, b: 1, beta: 1, rc: 2, c: 2, pre: 2, preview: 2 };

export function parsePep440(text: string): Pep440Parts | null {
  const match = PEP440.exec(text.trim());
  if (!match) return null;
  const release = match[2]!.split('.').map(Number);
  while (release.length > 1 && release.at(-1) === 0) release.pop();
  const postNumber = match[5] ?? match[6];
  const hasPost = match[5] !== undefined || match[6] !== undefined;
  return {
    epoch: Number(match[1] ?? 0),
    release,
    pre: match[3] ? [PRE_RANK[match[3].toLowerCase()]!, Number(match[4] || 0)] : null,
    post: hasPost ? Number(postNumber || 0) : null,
    dev: match[7] !== undefined ? Number(match[7] || 0) : null,
    local: match[8] ? match[8].toLowerCase() : null,
  };
}

function compareNumbers(a: readonly number[], b: readonly number[]): number {
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    // Compared, not subtracted: the keys hold Infinity, and Infinity - Infinity is NaN.
    const left = a[index] ?? 0;
    const right = b[index] ?? 0;
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}

/** The sort key after the release: a `.devN` alone sorts before any pre-release of the same release. */
function suffixKey(parts: Pep440Parts): number[] {
  const pre = parts.pre ? [parts.pre[0], parts.pre[1]] : parts.post === null && parts.dev !== null ? [-1, 0] : [3, 0];
  const post = parts.post === null ? -1 : parts.post;
  const dev = parts.dev === null ? Number.POSITIVE_INFINITY : parts.dev;
  return [pre[0]!, pre[1]!, post, dev];
}

export function comparePep440Parts(a: Pep440Parts, b: Pep440Parts): number {
  if (a.epoch !== b.epoch) return Math.sign(a.epoch - b.epoch);
  const release = compareNumbers(a.release, b.release);
  if (release !== 0) return release;
  const suffix = compareNumbers(suffixKey(a), suffixKey(b));
  if (suffix !== 0) return suffix;
  if (a.local === b.local) return 0;
  if (a.local === null) return -1;
  if (b.local === null) return 1;
  return a.local < b.local ? -1 : 1;
}
