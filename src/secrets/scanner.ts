import { decodedScanInput, kubernetesSecretValues, mayHoldKubernetesSecret } from './kubernetes-secret.js';
import { GateCheck, type NameGateShape, nameGateShape } from './name-gate.js';
import { PendingWindows } from './pending-windows.js';
import { buildKeywordAutomaton, FOLD, isAutomatonKeyword, type KeywordAutomaton } from './prefilter.js';
import type { MatchContext, SecretRule } from './rule.js';
import {
  accepts,
  type Found,
  finish,
  locate,
  type RawSecret,
  resolveOverlaps,
  type Span,
  secretGroupNames,
  secretOf,
  secretValueOf,
  vetoTest,
} from './scan-results.js';
import { SeenMatches } from './seen-matches.js';
import { type FileSyntax, isDocumentationExample, isLockfile, syntaxOf } from './syntax.js';

/**
 * The hot path: keyword prefilter over the whole text, then each triggered rule's regex in a small window around the
 * hit, then the value checks. The raw secret exists only in the `RawSecret` objects this returns; callers turn them
 * into masked findings at once (see `to-finding.ts`).
 */

export type { RawSecret } from './scan-results.js';

export interface ScanTextOptions {
  /** Repo-relative path, for syntax and lockfile decisions. */
  readonly path: string;
  /** Report only secrets that start on a line this accepts (the change set's added lines). */
  readonly acceptLine?: (line: number) => boolean;
  /**
   * Report secrets on lines with an inline allow marker too, marked `allowedBy`, so the caller decides whether the
   * marker may clear them (the gate does not let a change allow its own critical secret).
   */
  readonly keepAllowed?: boolean;
}

/** What one scan of a text carries from one window to the next. */
interface ScanState {
  readonly syntax: FileSyntax;
  readonly lockfile: boolean;
  readonly documentation: boolean;
  /** Per rule, the offset of the whole text up to which it has run (see `scanStartsFor`). */
  readonly scannedUntil: Float64Array;
  /** The prefilter automaton's state. */
  state: number;
  readonly found: Found[];
  readonly seen: SeenMatches;
  readonly vetoed: Span[];
}

/** A text scanned as it arrives (see `SecretScanner.startStream`). */
export interface TextStream {
  /** The next piece of the text; pieces may end anywhere but inside a UTF-16 surrogate pair. */
  push(piece: string): void;
  /** The findings, as `scanText` gives them for the whole text. */
  end(): RawSecret[];
}

interface CompiledRule {
  readonly rule: SecretRule;
  readonly index: number;
  /** The rule's pattern with `g`, for the exec loop in a window. */
  readonly regex: RegExp;
  /** The same with `y` and `d`: run at a match's start, it gives the same match with its groups' offsets. */
  readonly locate: RegExp;
  readonly block: boolean;
  readonly maxLength: number;
  /** The rule's `gate`, sticky, tested right after a keyword hit before any window is cut. */
  readonly gate: RegExp | undefined;
  /** What the gate needs after the rest of the name, checked on the hit's shared parse first (`name-gate.ts`). */
  readonly gateShape: NameGateShape | undefined;
  /** The pattern's named groups that may hold the secret (`secret…`), in pattern order. */
  readonly secretGroups: readonly string[];
}

/**
 * Characters a streamed text keeps behind the prefilter (more than any window reaches back: a line window
 * `LINE_REACH`, a block window 64), in whole lines.
 */
const STREAM_BACK = 4096;
/**
 * The least a streamed text is scanned behind what has arrived: a line window reaches `LINE_REACH` past the hit and
 * the next line `LINE_REACH` more; the rest is room for a gate's look-ahead.
 */
const STREAM_AHEAD = 65_536;
/** How far a line window reaches either side of a hit. */
const LINE_REACH = 1024;
/**
 * Lines longer than this are minified code or one-line data (minified JSON configs). Generic rules skip them in code
 * (a bundle's `token="…"` is library output) and, elsewhere, look only in a bounded window around each keyword hit.
 */
const LONG_LINE = 1000;
/** A long-line window for generic rules: the name may start this far before the keyword… */
const LONG_LINE_BEFORE = 160;
/** …and name rest, separator and value (≤ 200) end within this far after it. Windows are twice this long. */
const LONG_LINE_AFTER = 400;
/** Inline suppression markers (ours, and gitleaks' so that existing annotations keep working). */

/** Applies to every rule (an imported gitleaks `[allowlist]`). */
export interface GlobalAllowlist {
  readonly paths?: readonly RegExp[];
  readonly regexes?: readonly RegExp[];
  readonly stopwords?: readonly string[];
}

export class SecretScanner {
  private readonly compiled: readonly CompiledRule[];
  private readonly automaton: KeywordAutomaton<CompiledRule>;
  /** Rules with no keyword (imported ones only): run over the whole text. */
  private readonly anchorless: readonly CompiledRule[];
  private readonly allowlist: GlobalAllowlist;
  /**
   * How far past a keyword hit a window may reach (a line window plus the next line, a block window, a gate's look
   * ahead): a streamed text is scanned only this far behind what has arrived.
   */
  private readonly reach: number;

  constructor(rules: readonly SecretRule[], allowlist: GlobalAllowlist = {}) {
    this.allowlist = allowlist;
    this.compiled = rules.map((rule, index) => ({
      rule,
      index,
      regex: new RegExp(rule.pattern.source, withFlags(rule.pattern.flags.replace(/[dy]/g, ''), 'g')),
      locate: new RegExp(rule.pattern.source, withFlags(rule.pattern.flags.replace('g', ''), 'dy')),
      block: rule.window === 'block',
      maxLength: rule.maxLength ?? 512,
      gate: rule.gate ? new RegExp(rule.gate.source, withFlags(rule.gate.flags.replace('g', ''), 'y')) : undefined,
      gateShape: nameGateShape(rule.gate),
      secretGroups: secretGroupNames(rule.pattern),
    }));
    this.automaton = buildKeywordAutomaton(this.compiled.map((item) => ({ keywords: item.rule.keywords, item })));
    this.reach = Math.max(STREAM_AHEAD, ...this.compiled.map((item) => (item.block ? item.maxLength + 64 : 0)));
    this.anchorless = this.compiled.filter(
      (item) => item.rule.keywords.length === 0 || !item.rule.keywords.every(isAutomatonKeyword),
    );
  }

  /** False when the global allowlist exempts the path. */
  acceptsPath(path: string): boolean {
    return !this.allowlist.paths?.some((re) => re.test(path));
  }

  get rules(): readonly SecretRule[] {
    return this.compiled.map((item) => item.rule);
  }

  scanText(text: string, options: ScanTextOptions): RawSecret[] {
    if (!this.acceptsPath(options.path)) return [];
    const scan = this.startScan(options.path);
    this.advance(scan, text, 0, text.length);
    for (const compiled of this.anchorless) {
      if (scan.scannedUntil[compiled.index] !== -1) continue;
      this.runRule(compiled, text, 0, text.length, scan);
    }
    if (mayHoldKubernetesSecret(options.path, text)) this.scanKubernetesSecretData(text, scan.found);
    locate(scan.found, text, 0, 0);
    return this.finishScan(scan, options);
  }

  /**
   * A text that arrives in pieces (a large file read from disk in windows), with the same findings `scanText` gives
   * for the whole: the prefilter's state and each rule's progress carry over, and every window a rule runs in lies
   * inside the text held, which keeps `STREAM_BACK` characters (and whole lines) behind the prefilter and waits for
   * `reach` characters ahead of it. Null when this path or rule set needs the whole text at once (then read it whole).
   */
  startStream(options: ScanTextOptions): TextStream | null {
    if (this.anchorless.length > 0 || /\.ya?ml$/i.test(options.path)) return null;
    if (!this.acceptsPath(options.path)) return { push: () => {}, end: () => [] };
    const scan = this.startScan(options.path);
    let held = '';
    let base = 0;
    let linesBefore = 0;
    let done = 0;
    let located = 0;
    const settle = (final: boolean) => {
      const until = final ? held.length : Math.max(done, held.length - this.reach);
      this.advance(scan, held, done, until, base);
      done = until;
      locate(scan.found.slice(located), held, base, linesBefore);
      located = scan.found.length;
      if (final) return;
      // Keep whole lines from the one before the line holding `done - STREAM_BACK`: every window reaches back less.
      const from = Math.max(0, done - STREAM_BACK);
      const lineStart = held.lastIndexOf('\n', from - 1) + 1;
      const keep = lineStart > 0 ? held.lastIndexOf('\n', lineStart - 2) + 1 : 0;
      if (keep === 0) return;
      for (let at = held.indexOf('\n'); at !== -1 && at < keep; at = held.indexOf('\n', at + 1)) linesBefore++;
      held = held.slice(keep);
      base += keep;
      done -= keep;
    };
    return {
      push: (piece) => {
        held += piece;
        if (held.length - done > this.reach) settle(false);
      },
      end: () => {
        settle(true);
        return this.finishScan(scan, options);
      },
    };
  }

  private startScan(path: string): ScanState {
    return {
      syntax: syntaxOf(path),
      lockfile: isLockfile(path),
      documentation: isDocumentationExample(path),
      scannedUntil: this.scanStartsFor(path),
      state: 0,
      found: [],
      seen: new SeenMatches(this.compiled.length),
      vetoed: [],
    };
  }

  private finishScan(scan: ScanState, options: ScanTextOptions): RawSecret[] {
    const vetoed = vetoTest(scan.vetoed);
    const allowed = scan.found.filter((item) => !this.globallyAllowed(item.secret) && !vetoed(item));
    return finish(resolveOverlaps(allowed), options.acceptLine, options.keepAllowed ?? false);
  }

  /**
   * Runs the prefilter over `text[from, until)` (`text` starts at offset `base` of the whole) and each triggered rule
   * in its window. Offsets kept in `scan` are of the whole text. Unless `text` ends where the whole does, `until`
   * stays `reach` short of its end, so no window is cut short by it.
   */
  private advance(scan: ScanState, text: string, from: number, until: number, base = 0): void {
    const { syntax, lockfile, documentation, scannedUntil } = scan;
    const { delta, outputs } = this.automaton;
    const length = text.length;
    // The line around the latest hit, computed once per line however many hits it has (minified code has many).
    let lineStart = -1;
    let lineEnd = -2;
    let state = scan.state;
    const gates = new GateCheck(text);
    const pending = new PendingWindows(this.compiled.length, (index, start, end, cutShort) =>
      this.runRule(this.compiled[index]!, text, start, end, scan, cutShort, base),
    );
    for (let i = from; i < until; i++) {
      state = delta[(state << 7) | FOLD[text.charCodeAt(i)]!]!;
      const ended = outputs[state];
      if (ended === undefined) continue;
      for (const keyword of ended) {
        const at = i - keyword.length + 1;
        const after = i + 1;
        for (const compiled of keyword.items) {
          if (base + at < scannedUntil[compiled.index]!) continue;
          if (compiled.gate && !gates.passes(compiled.gate, compiled.gateShape, after)) continue;
          let start: number;
          let end: number;
          if (compiled.block) {
            start = Math.max(0, at - 64);
            end = Math.min(length, at + compiled.maxLength);
            scannedUntil[compiled.index] = base + end;
          } else {
            if (at < lineStart || at > lineEnd) {
              lineStart = text.lastIndexOf('\n', at - 1) + 1;
              lineEnd = text.indexOf('\n', at);
              if (lineEnd === -1) lineEnd = length;
            }
            const long = lineEnd - lineStart > LONG_LINE;
            if (compiled.rule.generic && (lockfile || (long && syntax === 'code'))) continue;
            if (documentation && (compiled.rule.generic || compiled.rule.commonInExamples)) continue;
            if (compiled.rule.generic && long) {
              // Every hit before `at + LONG_LINE_AFTER` has its whole match inside this window, so the next window
              // starts at least LONG_LINE_AFTER further on: each character is scanned a bounded number of times.
              start = Math.max(lineStart, at - LONG_LINE_BEFORE);
              end = Math.min(lineEnd, at + 2 * LONG_LINE_AFTER);
              scannedUntil[compiled.index] = base + at + LONG_LINE_AFTER;
              pending.add(compiled.index, start, end, end < lineEnd);
              continue;
            }
            start = Math.max(lineStart, at - LINE_REACH);
            end = Math.min(lineEnd, at + LINE_REACH);
            // Later hits on this line need no new window; hits on the next line do (their window reaches further).
            scannedUntil[compiled.index] = base + end;
            if (!long && end < length) {
              // The next line too: a k8s `name:` line and its `value:` line belong together.
              const next = text.indexOf('\n', end + 1);
              end = next === -1 || next > end + LINE_REACH ? Math.min(length, end + 1 + LINE_REACH) : next;
            }
          }
          if (compiled.block) this.runRule(compiled, text, start, end, scan, false, base);
          else pending.add(compiled.index, start, end);
        }
      }
    }
    pending.flushAll();
    scan.state = state;
  }

  /** Secrets inside a Kubernetes Secret's base64 `data:` values, reported at the encoded value. */
  private scanKubernetesSecretData(text: string, found: Found[]): void {
    for (const value of kubernetesSecretValues(text)) {
      // The encoded form is never the secret itself: what it decodes to decides (a decoded placeholder is no finding).
      for (let i = found.length - 1; i >= 0; i--) {
        if (found[i]!.start >= value.start && found[i]!.end <= value.end) found.splice(i, 1);
      }
      const input = decodedScanInput(value);
      for (const inner of this.scanText(input.text, { path: input.path })) {
        const order = this.compiled.findIndex((item) => item.rule === inner.rule);
        found.push({ rule: inner.rule, secret: inner.secret, start: value.start, end: value.end, order });
      }
    }
  }

  /**
   * Per rule, the offset up to which the text counts as scanned: -1 (nothing yet), or everything for a rule whose own
   * allowlist or path filter exempts this path.
   */
  private scanStartsFor(path: string): Float64Array {
    const scannedUntil = new Float64Array(this.compiled.length).fill(-1);
    for (const compiled of this.compiled) {
      const { allowlist, onlyPaths } = compiled.rule;
      const exempt = allowlist?.paths?.some((re) => re.test(path)) || (onlyPaths && !onlyPaths.test(path));
      if (exempt) scannedUntil[compiled.index] = Number.POSITIVE_INFINITY;
    }
    return scannedUntil;
  }

  private globallyAllowed(secret: string): boolean {
    const { regexes, stopwords } = this.allowlist;
    if (regexes?.some((re) => re.test(secret))) return true;
    if (stopwords && stopwords.length > 0) {
      const lower = secret.toLowerCase();
      return stopwords.some((word) => lower.includes(word));
    }
    return false;
  }

  private runRule(
    compiled: CompiledRule,
    text: string,
    start: number,
    end: number,
    scan: Pick<ScanState, 'syntax' | 'found' | 'seen' | 'vetoed'>,
    cutShort = false,
    base = 0,
  ): void {
    const { regex, rule } = compiled;
    const window = text.slice(start, end);
    scan.seen.enterWindow(compiled.index, base + start, base + end);
    regex.lastIndex = 0;
    for (let match = regex.exec(window); match !== null; match = regex.exec(window)) {
      if (match[0].length === 0) regex.lastIndex++;
      // A match that runs into a window cut inside the line may be a truncated value; the next window sees it whole.
      if (cutShort && match.index + match[0].length === window.length) continue;
      const value = secretValueOf(match, rule.secretGroup, compiled.secretGroups);
      if (!value) continue;
      if (!scan.seen.firstTime(compiled.index, base + start + match.index, match[0].length)) continue;
      const groups = match.groups;
      // One object shape for every match: a spread with a conditional `name` built objects of many shapes, which made
      // every check that reads the context slow (most of the time spent on keyword-dense text).
      const context: MatchContext = {
        name: groups === undefined ? undefined : (groups.name ?? groups.envName),
        group: value.group,
        syntax: scan.syntax,
      };
      const accepted = accepts(rule, value.secret, context);
      // Most matches in keyword-dense text are rejected generic values: where a secret sits is worked out (a second,
      // sticky run with group offsets) only for those that count.
      if (!accepted && rule.generic) continue;
      compiled.locate.lastIndex = match.index;
      const located = secretOf(compiled.locate.exec(window)!, rule.secretGroup, compiled.secretGroups);
      if (!located) continue;
      const absolute = base + start + located.start;
      if (!accepted) {
        // A provider rule that recognised the shape and rejected the value (wrong checksum, placeholder password)
        // has the last word: a generic rule may not report the same text.
        scan.vetoed.push({ start: absolute, end: absolute + located.secret.length });
        continue;
      }
      scan.found.push({
        rule,
        order: compiled.index,
        secret: located.secret,
        start: absolute,
        end: absolute + located.secret.length,
      });
    }
  }
}

function withFlags(flags: string, extra: string): string {
  let out = flags;
  for (const flag of extra) if (!out.includes(flag)) out += flag;
  return out;
}
