/**
 * RubyGems' `Gem::Version#<=>`: segments split at dots and between digits and letters ("1.0.0.pre1" →
 * 1, 0, 0, "pre", 1); trailing zero segments do not count; a number beats a string (so any letter makes a
 * pre-release); strings compare as strings. https://github.com/rubygems/rubygems/blob/master/lib/rubygems/version.rb
 */
type Segment = number | string;

export function parseRubygems(text: string): Segment[] | null {
  const trimmed = text.trim();
  if (!/^[0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/.test(trimmed)) return null;
  // "1.0-beta" is "1.0.pre.beta" for RubyGems.
  const canonical = trimmed.replace(/-/g, '.pre.');
  const segments: Segment[] = [];
  for (const match of canonical.matchAll(/[0-9]+|[a-z]+/gi)) {
    segments.push(/^\d/.test(match[0]) ? Number(match[0]) : match[0]);
  }
  // Drop zeros that end the release part (before any string) and the whole: 1.0.0 == 1, 1.0.a == 1.a.
  const firstString = segments.findIndex((segment) => typeof segment === 'string');
  const release = firstString < 0 ? segments : segments.slice(0, firstString);
  const rest = firstString < 0 ? [] : segments.slice(firstString);
  while (release.length > 1 && release.at(-1) === 0) release.pop();
  while (rest.length > 0 && rest.at(-1) === 0) rest.pop();
  return [...release, ...rest];
}

export function compareRubygemsSegments(a: readonly Segment[], b: readonly Segment[]): number {
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a[index] ?? 0;
    const right = b[index] ?? 0;
    if (left === right) continue;
    if (typeof left === 'string' && typeof right === 'number') return -1;
    if (typeof left === 'number' && typeof right === 'string') return 1;
    return left < right ? -1 : 1;
  }
  return 0;
}
