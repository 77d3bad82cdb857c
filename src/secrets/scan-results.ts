import { type AllowMarker, allowMarkerAbove, allowMarkerOn } from './allow-markers.js';
import { isDocExampleLine } from './doc-examples.js';
import { shannonEntropy } from './entropy.js';
import { isPlaceholder } from './placeholders.js';
import type { MatchContext, SecretRule } from './rule.js';
import { fixedSpanSet, GrowingSpanSet, type Span } from './span-index.js';

/**
 * What the scanner does with a regex match (which group is the secret, whether its value passes the rule's checks)
 * and with its matches once a text is scanned: keep one per piece of text, place each at its line
 * and column with the inline allow marker that covers it, and report them as `RawSecret`s.
 */

/** A secret the scanner found. */
export interface RawSecret {
  readonly rule: SecretRule;
  /** Only in memory; never logged, returned from a tool or written anywhere. */
  readonly secret: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units like every editor's column. */
  readonly column: number;
  /** Offsets of the secret in the scanned text. */
  readonly start: number;
  readonly end: number;
  /** The inline allow marker that covers it; set only when the scan was asked to keep allowed secrets. */
  readonly allowedBy?: string;
  /** The marker's line (the secret's own, or the comment line above it). */
  readonly allowedAt?: number;
  /** What the marker says after itself (`tollgate:allow test fixture` → `test fixture`). */
  readonly allowReason?: string;
  /** Its line is a documentation example in a comment or docstring (`doc-examples.ts`): a fixture place. */
  readonly docExample?: true;
  /**
   * Set only when the scan was asked to keep rejected candidates: no finding but a value a provider rule recognised
   * and rejected, and why (`rejectionOf`).
   */
  readonly rejected?: string;
}

export type { Span } from './span-index.js';

/** A match; `order` is the rule's place in the pack. Line, column and allow marker are set by `locate`. */
export interface Found {
  readonly rule: SecretRule;
  readonly secret: string;
  readonly start: number;
  readonly end: number;
  readonly order: number;
  line?: number;
  column?: number;
  allow?: AllowMarker | null;
  docExample?: boolean;
  /** Why a rule rejected it: a candidate kept for `--report-allowed`, never a finding. */
  rejected?: string;
}

/**
 * One finding per piece of text: where spans overlap, a provider rule beats a generic one, and an earlier rule in the
 * pack beats a later one. Candidates are taken best first; each is kept unless a kept one overlaps it.
 */
export function resolveOverlaps(found: Found[]): Found[] {
  if (found.length < 2) return found;
  const ranked = [...found].sort((a, b) => rank(a) - rank(b) || a.start - b.start);
  const kept: Found[] = [];
  const taken = new GrowingSpanSet(found);
  for (const candidate of ranked) {
    if (taken.overlaps(candidate)) continue;
    taken.add(candidate);
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}

function rank(item: Found): number {
  return (item.rule.generic ? 1_000_000 : 0) + item.order;
}

/**
 * Line, column and inline allow marker of each item, from the text that holds it: `text` starts at offset `base` of
 * the whole, after `linesBefore` line ends, and holds the item's line and the one above it.
 */
export function locate(items: readonly Found[], text: string, base: number, linesBefore: number): void {
  if (items.length === 0) return;
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineText = (index: number) =>
    text.slice(lineStarts[index]!, index + 1 < lineStarts.length ? lineStarts[index + 1]! : text.length);
  const heldLine = (index: number) => (index < 0 ? null : lineText(index).replace(/\r?\n$/, ''));
  // Per line, not per item: a one-line data file with thousands of findings was read for a marker once per finding.
  const markers = new Map<number, AllowMarker | null>();
  const examples = new Map<number, boolean>();
  for (const item of items) {
    const lineIndex = lineIndexOf(lineStarts, item.start - base);
    item.line = linesBefore + lineIndex + 1;
    item.column = item.start - base - lineStarts[lineIndex]! + 1;
    let allow = markers.get(lineIndex);
    if (allow === undefined) {
      allow = allowMarkerOn(lineText(lineIndex)) ?? (lineIndex > 0 ? allowMarkerAbove(lineText(lineIndex - 1)) : null);
      markers.set(lineIndex, allow);
    }
    item.allow = allow;
    let example = examples.get(lineIndex);
    if (example === undefined) {
      example = isDocExampleLine(heldLine, lineIndex);
      examples.set(lineIndex, example);
    }
    item.docExample = example;
  }
}

export function finish(
  found: readonly Found[],
  acceptLine: ((line: number) => boolean) | undefined,
  keepAllowed: boolean,
): RawSecret[] {
  const out: RawSecret[] = [];
  for (const item of found) {
    const line = item.line!;
    if (acceptLine && !acceptLine(line)) continue;
    const allow = item.allow;
    if (allow && !keepAllowed) continue;
    out.push({
      rule: item.rule,
      secret: item.secret,
      start: item.start,
      end: item.end,
      line,
      column: item.column!,
      ...(item.docExample ? { docExample: true as const } : {}),
      ...(allow
        ? {
            allowedBy: allow.marker,
            allowedAt: allow.above ? line - 1 : line,
            ...(allow.reason ? { allowReason: allow.reason } : {}),
          }
        : {}),
    });
  }
  return out;
}

function lineIndexOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * A generic rule's hit inside a span a specific rule vetoed (a known non-secret there) does not count. Returns the test
 * for one hit, built once per text.
 */
export function vetoTest(vetoed: readonly Span[]): (item: Found) => boolean {
  const overlapsVeto = fixedSpanSet(vetoed);
  return (item) => item.rule.generic === true && overlapsVeto(item);
}

/**
 * The source's tokens as `secretGroupNames` reads them: an escape (a lone backslash at the end too), a character class
 * to its closing `]` (or the end), a named group's opening with its name (96 characters at most, as the walk before it
 * read), or a run of anything else.
 */
const SOURCE_TOKENS = /\\[\s\S]?|\[(?:\\[\s\S]?|[^\]\\])*\]?|\(\?<([A-Za-z_$][\w$]{0,95})>|[^\\[(]+|\(/g;

/** The named groups of `pattern` whose names start with `secret`, in the order the pattern defines them. */
export function secretGroupNames(pattern: RegExp): string[] {
  // Read from the source, in order: compiling and running every rule's pattern once more to list its groups cost more
  // at start-up than a short scan does. Escapes and character classes are stepped over; `(?<=` and `(?<!` are no names.
  // By one regular expression, not a loop in JavaScript: run over every rule's source (each at its rule's first hit),
  // that loop was compiled by TurboFan in each scanning thread (8-50 ms of a compile thread's time, loaded).
  const names: string[] = [];
  for (const token of pattern.source.matchAll(SOURCE_TOKENS)) {
    const name = token[1];
    if (name?.startsWith('secret')) names.push(name);
  }
  return names;
}

/**
 * The secret is the first defined group whose name starts with `secret`, else group 1, else the whole match.
 * `secretGroups` (from `secretGroupNames`, computed once per rule) saves listing the match's groups every time.
 */
export function secretOf(
  match: RegExpExecArray,
  secretGroup?: number,
  secretGroups?: readonly string[],
): { secret: string; start: number; group: string } | null {
  const indices = match.indices;
  if (!indices) return null;
  if (secretGroup !== undefined) {
    const span = indices[secretGroup];
    const secret = match[secretGroup];
    return span && secret !== undefined ? { secret, start: span[0], group: String(secretGroup) } : null;
  }
  const groups = match.groups;
  if (groups && indices.groups) {
    for (const name of secretGroups ?? Object.keys(groups)) {
      const value = groups[name];
      if (value === undefined || !name.startsWith('secret')) continue;
      const span = indices.groups[name];
      if (span) return { secret: value, start: span[0], group: name };
    }
  }
  const group = match[1] !== undefined && indices[1] ? 1 : 0;
  const span = indices[group];
  const secret = match[group];
  if (!span || secret === undefined) return null;
  return { secret, start: span[0], group: String(group) };
}

/** The same choice of group as `secretOf`, from a match without offsets: the secret's value and its group. */
export function secretValueOf(
  match: RegExpExecArray,
  secretGroup: number | undefined,
  secretGroups: readonly string[],
): { secret: string; group: string } | null {
  if (secretGroup !== undefined) {
    const secret = match[secretGroup];
    return secret === undefined ? null : { secret, group: String(secretGroup) };
  }
  const groups = match.groups;
  if (groups) {
    for (const name of secretGroups) {
      const secret = groups[name];
      if (secret !== undefined) return { secret, group: name };
    }
  }
  const group = match[1] !== undefined ? 1 : 0;
  const secret = match[group];
  return secret === undefined ? null : { secret, group: String(group) };
}

export function accepts(rule: SecretRule, secret: string, context: MatchContext): boolean {
  if (secret.length === 0) return false;
  // A generic rule's own judgement rejects most of what it matches (and checks placeholders itself), cheaply: first.
  if (rule.generic && rule.validate && !rule.validate(secret, context)) return false;
  if (rule.entropy !== undefined && shannonEntropy(secret) < rule.entropy) return false;
  if (isPlaceholder(secret)) return false;
  const allow = rule.allowlist;
  if (allow?.regexes?.some((re) => re.test(secret))) return false;
  if (allow?.stopwords) {
    const lower = secret.toLowerCase();
    if (allow.stopwords.some((word) => lower.includes(word))) return false;
  }
  if (!rule.generic && rule.validate && !rule.validate(secret, context)) return false;
  return true;
}

/**
 * Why `accepts` rejects a value, or null when it accepts it: what `--report-allowed` lists for a candidate dropped
 * silently, so that a person testing with a made-up value learns why nothing was found. Off the hot path: asked only
 * of rejected candidates, and only when they are listed.
 */
export function rejectionOf(rule: SecretRule, secret: string, context: MatchContext): string | null {
  if (accepts(rule, secret, context)) return null;
  if (secret.length === 0) return 'empty value';
  if (isPlaceholder(secret)) return 'a placeholder value';
  if (rule.generic) return "the value does not look like a secret (the rule's own checks)";
  if (rule.entropy !== undefined && shannonEntropy(secret) < rule.entropy)
    return `too little randomness (under ${rule.entropy} bits of entropy per character)`;
  const allow = rule.allowlist;
  const lower = secret.toLowerCase();
  if (allow?.regexes?.some((re) => re.test(secret)) || allow?.stopwords?.some((word) => lower.includes(word)))
    return "matches the rule's allowlist";
  return (
    rule.rejectedBecause?.(secret, context) ?? 'fails the format check (a checksum or the shape the provider issues)'
  );
}

/**
 * The findings, then the rejected candidates no finding covers (another rule may report the same text), one per piece
 * of text, each marked with why it was rejected.
 */
export function withRejected(
  findings: RawSecret[],
  rejected: readonly Found[],
  acceptLine: ((line: number) => boolean) | undefined,
): RawSecret[] {
  const taken: Span[] = [...findings];
  const out = [...findings];
  for (const item of [...rejected].sort((a, b) => a.start - b.start || a.order - b.order)) {
    if (taken.some((span) => span.start < item.end && item.start < span.end)) continue;
    if (acceptLine && !acceptLine(item.line!)) continue;
    taken.push(item);
    out.push({
      rule: item.rule,
      secret: item.secret,
      start: item.start,
      end: item.end,
      line: item.line!,
      column: item.column!,
      rejected: item.rejected!,
    });
  }
  return out;
}
