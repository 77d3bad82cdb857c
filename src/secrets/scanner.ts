import { advanceBytes } from './byte-scan.js';
import type { Utf8ByteView } from './byte-view.js';
import { type CompiledRule, compileRule } from './compiled-rule.js';
import { ExemptAccepting } from './exempt-accepting.js';
import { gatesReadWithinLines } from './gates-within-lines.js';
import { HitDrops } from './hit-bytes.js';
import { KeywordHits } from './keyword-hits.js';
import { decodedScanInput, kubernetesSecretValues, mayHoldKubernetesSecret } from './kubernetes-secret.js';
import type { RuleEntry } from './lazy-rule.js';
import { GateCheck } from './name-gate.js';
import { NameKeywords } from './name-keywords.js';
import { holdsAnyHit, opensAnyWindow } from './opens-window.js';
import { type PathFacts, PathFactsCache } from './path-facts.js';
import { PendingWindows } from './pending-windows.js';
import { buildKeywordAutomaton, isAutomatonKeyword, type KeywordAutomaton } from './prefilter.js';
import { providerPrefixTest } from './provider-prefixes.js';
import type { SecretRule } from './rule.js';
import { RuleProgressPool } from './rule-progress.js';
import { runRuleWindow } from './run-rule-window.js';
import { type Found, finish, locate, type RawSecret, resolveOverlaps, vetoTest, withRejected } from './scan-results.js';
import { type Hits, newScanState, type ScanState, STREAM_AHEAD, STREAM_BACK } from './scan-state.js';
import type { GlobalAllowlist, ScanTextOptions, TextStream } from './scan-text-options.js';
import { StateShapes } from './shape-masks.js';
import { type FileSyntax, syntaxOfHead } from './syntax.js';
import { UnitBytes, UnitScratch } from './unit-bytes.js';
import { openNamed, openWindow, TextWindows } from './window-openers.js';

/**
 * The hot path: keyword prefilter over the whole text, then each triggered rule's regex in a small window around the
 * hit, then the value checks. The raw secret exists only in the `RawSecret` objects this returns; callers turn them
 * into masked findings at once (see `to-finding.ts`).
 */

export type { RawSecret } from './scan-results.js';
export type { GlobalAllowlist, ScanTextOptions, TextStream } from './scan-text-options.js';

export class SecretScanner {
  private readonly compiled: readonly CompiledRule[];
  private readonly automaton: KeywordAutomaton<CompiledRule>;
  /** The keywords of rules with `nameWords`, looked up in the name before each name word's hit. */
  private readonly nameKeywords: NameKeywords<CompiledRule>;
  /** Rules with no keyword (imported ones only): run over the whole text. */
  private readonly anchorless: readonly CompiledRule[];
  private readonly allowlist: GlobalAllowlist;
  /** Per path, its syntax, lockfile and documentation names, and the rules its own path filters exempt. */
  private readonly pathFacts: PathFactsCache;
  /** The accepting states a text's scan reports, by its path's exempt rules. */
  private readonly accepting: ExemptAccepting;
  private readonly progress: RuleProgressPool;
  private readonly idleWindows: PendingWindows[] = [];
  private readonly idleHits: KeywordHits[] = [];
  /**
   * How far past a keyword hit a window may reach (a line window plus the next line, a block window, a gate's look
   * ahead): a streamed text is scanned only this far behind what has arrived.
   */
  private readonly reach: number;
  /** Whether a value starts with a provider token's prefix: then only that provider's rule may report it. */
  private readonly hasProviderPrefix: (value: string) => boolean;
  /** Whether a hit's gates may be read from whole lines around it (`gatesReadWithinLines`); set at the first `scanView`. */
  private tiledGates: boolean | undefined;
  /** The units' memory of `scanView`'s non-ASCII files (`unit-bytes.ts`), used by one scan at a time. */
  private readonly unitScratch = new UnitScratch();
  /** See `ByteScanContext.shapes`; made at the first `scanView`. */
  private shapes: StateShapes | undefined;
  /** See `ByteScanContext.drops`; made at the first `scanView`. */
  private drops: HitDrops | undefined;
  /** The provider-named rules, which the name walk opens (`NameKeywords`' items). */
  private readonly named: readonly CompiledRule[];
  /** About how many bytes of whole lines `scanView` reads a hit's gates from (see `byte-scan.ts`); tests cut it. */
  tileBytes = 64 * 1024;
  constructor(rules: readonly RuleEntry[], allowlist: GlobalAllowlist = {}) {
    this.allowlist = allowlist;
    this.compiled = rules.map(compileRule);
    this.hasProviderPrefix = providerPrefixTest(rules);
    const named = this.compiled.filter((item) => item.outline.nameWords !== undefined);
    this.named = named;
    this.automaton = buildKeywordAutomaton(
      this.compiled
        .filter((item) => item.outline.nameWords === undefined)
        .map((item) => ({ keywords: item.outline.keywords, item })),
      // The provider-named rules share one list of name words: read once, not once per rule.
      [...new Set(named.map((item) => item.outline.nameWords ?? []))].flat(),
      (item) => item.outline.onlyPaths !== undefined,
    );
    this.accepting = new ExemptAccepting(this.automaton);
    this.idleHits.push(new KeywordHits());
    this.nameKeywords = new NameKeywords(named.map((item) => ({ keywords: item.outline.keywords, item })));
    this.reach = Math.max(STREAM_AHEAD, ...this.compiled.map((item) => (item.block ? item.maxLength + 64 : 0)));
    this.progress = new RuleProgressPool(this.compiled.length);
    this.pathFacts = new PathFactsCache(
      this.compiled.filter(
        (item) => item.outline.onlyPaths !== undefined || (item.outline.allowlist?.paths?.length ?? 0) > 0,
      ),
    );
    this.anchorless = this.compiled.filter(
      (item) => item.outline.keywords.length === 0 || !item.outline.keywords.every(isAutomatonKeyword),
    );
  }

  /** False when the global allowlist exempts the path. */
  acceptsPath(path: string): boolean {
    return !this.allowlist.paths?.some((re) => re.test(path));
  }

  /** Every rule, made (a lazy one is made here). */
  get rules(): readonly SecretRule[] {
    return this.compiled.map((item) => item.rule);
  }

  /** How many rules it runs, none made to count them. */
  get ruleCount(): number {
    return this.compiled.length;
  }

  /**
   * About `bytes` bytes of files follow on this thread (`scanQueue`): the keyword pass readies itself for that many
   * (`KeywordHits.expectBytes`).
   */
  expectBytes(bytes: number): void {
    for (const hits of this.idleHits) hits.expectBytes(bytes);
  }

  scanText(text: string, options: ScanTextOptions): RawSecret[] {
    if (!this.acceptsPath(options.path)) return [];
    const facts = this.pathFacts.of(options.path);
    const scan = this.startScan(facts, facts.syntax ?? syntaxOfHead(text), options);
    this.advance(scan, text, 0, text.length);
    for (const compiled of this.anchorless) {
      if (scan.scannedUntil[compiled.index] !== -1) continue;
      runRuleWindow(compiled, text, 0, text.length, scan);
    }
    if (facts.yaml && mayHoldKubernetesSecret(text)) this.scanKubernetesSecretData(text, scan.found);
    locate(scan.found, text, 0, 0);
    if (scan.rejected) locate(scan.rejected, text, 0, 0);
    return this.finishScan(scan, options);
  }

  /**
   * `scanText` of `view.utf8()`, read from the bytes with no string of the whole file (`byte-scan.ts`): the same
   * results, or null when the path or rules need the text itself (a YAML file's Kubernetes Secret values, rules without
   * keywords); then scan `view.utf8()`. An ASCII file's bytes are its text; any other is read one byte per UTF-16 unit
   * of its decoded text (`unit-bytes.ts`), so offsets are the decoded text's and only the tiles and windows that hold
   * non-ASCII text are decoded.
   */
  scanView(view: Utf8ByteView, options: ScanTextOptions): RawSecret[] | null {
    if (!this.acceptsPath(options.path)) return [];
    const facts = this.pathFacts.of(options.path);
    this.tiledGates ??= gatesReadWithinLines(this.compiled);
    if (this.anchorless.length > 0 || facts.yaml || !this.tiledGates) return null;
    const units = view.ascii ? null : UnitBytes.of(view.bytes, undefined, this.unitScratch.take(view.bytes.length));
    const bytes = units === null ? view.bytes : units.units;
    // `syntaxOfHead` reads up to 200 characters.
    const head = units === null ? bytes.toString('latin1', 0, 200) : units.text(0, Math.min(200, bytes.length));
    const scan = this.startScan(facts, facts.syntax ?? syntaxOfHead(head), options);
    this.advanceBytes(scan, bytes, units);
    if (scan.found.length > 0 || (scan.rejected?.length ?? 0) > 0) {
      // Results are rare: only they are placed in the decoded text, as `scanText` places them.
      locate(scan.found, view.utf8(), 0, 0);
      if (scan.rejected) locate(scan.rejected, view.utf8(), 0, 0);
    }
    return this.finishScan(scan, options);
  }

  /** `advanceBytes` (`byte-scan.ts`) over the whole of `bytes`, with this scanner's automata and rules lent. */
  private advanceBytes(scan: ScanState, bytes: Buffer, units: UnitBytes | null): void {
    const { automaton, nameKeywords, compiled, tileBytes } = this;
    this.shapes ??= new StateShapes(automaton);
    this.drops ??= new HitDrops(automaton, this.named);
    const context = { automaton, nameKeywords, compiled, tileBytes, shapes: this.shapes, drops: this.drops };
    const pending = this.idleWindows.pop() ?? new PendingWindows(this.compiled.length);
    const found = this.idleHits.pop() ?? new KeywordHits();
    advanceBytes(context, scan, bytes, pending, found, units);
    this.idleWindows.push(pending);
    this.idleHits.push(found);
  }

  /**
   * False only when `scanText(text, { path })` is sure to return nothing: no rule here runs without a keyword, the
   * path is no YAML whose Kubernetes Secret values are decoded, and at no keyword hit would a rule's window open (the
   * rule's own path filter exempts the path, or its gate fails right after the hit, exactly as `openWindow` decides).
   * Rules run only in windows opened at such hits, so without one nothing can match. A name word's hit counts as a
   * window. What lets output masking skip the scan for the many texts (paths, progress lines) no rule can match.
   */
  mayFind(text: string, path: string): boolean {
    if (!this.acceptsPath(path)) return false;
    if (this.anchorless.length > 0) return true;
    const facts = this.pathFacts.of(path);
    if (facts.yaml && mayHoldKubernetesSecret(text)) return true;
    const found = this.idleHits.pop() ?? new KeywordHits();
    try {
      return opensAnyWindow(this.automaton, this.accepting.for(facts.exempt), text, facts.exempt, found);
    } finally {
      this.idleHits.push(found);
    }
  }

  /**
   * For texts each to be scanned alone (`scanText(texts[i], { path: paths[i] })`): 1 where that scan is sure to return
   * nothing, 0 elsewhere. Sure when the text holds no hit of a keyword of the rules its path does not exempt: no window
   * opens then (see `mayFind`, which also reads the gates after each hit). Only the keyword pass runs, none of a scan's
   * set-up and finish: most of what a text of a few lines costs, and three in four of a history's have no hit. Never
   * sure with rules that have no keyword, nor for a YAML text that may hold a Kubernetes Secret (its values are decoded
   * and scanned).
   */
  quietTexts(texts: readonly string[], paths: readonly string[]): Uint8Array {
    const quiet = new Uint8Array(texts.length);
    if (this.anchorless.length > 0) return quiet;
    const found = this.idleHits.pop() ?? new KeywordHits();
    try {
      for (let i = 0; i < texts.length; i++) {
        const path = paths[i]!;
        const text = texts[i]!;
        if (!this.acceptsPath(path)) {
          quiet[i] = 1;
          continue;
        }
        const facts = this.pathFacts.of(path);
        if (facts.yaml && mayHoldKubernetesSecret(text)) continue;
        if (!holdsAnyHit(this.automaton, this.accepting.for(facts.exempt), text, found)) quiet[i] = 1;
      }
    } finally {
      this.idleHits.push(found);
    }
    return quiet;
  }

  /**
   * A text that arrives in pieces (a large file read from disk in windows), with the same findings `scanText` gives
   * for the whole: the prefilter's state and each rule's progress carry over, and every window a rule runs in lies
   * inside the text held, which keeps `STREAM_BACK` characters (and whole lines) behind the prefilter and waits for
   * `reach` characters ahead of it. Null when this path or rule set needs the whole text at once (then read it whole).
   */
  startStream(options: ScanTextOptions): TextStream | null {
    if (!this.canStream(options.path)) return null;
    if (!this.acceptsPath(options.path)) return { push: () => {}, end: () => [] };
    const facts = this.pathFacts.of(options.path);
    const scan = this.startScan(facts, facts.syntax ?? 'config', options);
    let held = '';
    let base = 0;
    let linesBefore = 0;
    let done = 0;
    let located = 0;
    let locatedRejected = 0;
    const settle = (final: boolean) => {
      if (base === 0 && done === 0) scan.syntax = facts.syntax ?? syntaxOfHead(held);
      const until = final ? held.length : Math.max(done, held.length - this.reach);
      this.advance(scan, held, done, until, base);
      done = until;
      locate(scan.found.slice(located), held, base, linesBefore);
      located = scan.found.length;
      if (scan.rejected) {
        locate(scan.rejected.slice(locatedRejected), held, base, linesBefore);
        locatedRejected = scan.rejected.length;
      }
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

  /** Whether `startStream` takes a text at this path (a Kubernetes manifest or an imported anchorless rule needs it whole). */
  canStream(path: string): boolean {
    return this.anchorless.length === 0 && !this.pathFacts.of(path).yaml;
  }

  private startScan(facts: PathFacts, syntax: FileSyntax, options: ScanTextOptions): ScanState {
    const scannedUntil = this.progress.take(facts.exempt);
    const shared = { scannedUntil, accepting: this.accepting.for(facts.exempt), keepRejected: !!options.keepRejected };
    return newScanState(facts, syntax, shared);
  }

  private finishScan(scan: ScanState, options: ScanTextOptions): RawSecret[] {
    this.progress.give(scan.scannedUntil, scan.seen.rulesRun(), scan.exempt);
    const findings = this.findingsOf(scan, options);
    return scan.rejected && scan.rejected.length > 0
      ? withRejected(findings, scan.rejected, options.acceptLine)
      : findings;
  }

  private findingsOf(scan: ScanState, options: ScanTextOptions): RawSecret[] {
    if (scan.found.length === 0) return [];
    const vetoed = vetoTest(scan.vetoed);
    const allowed = scan.found.filter(
      (item) =>
        !this.globallyAllowed(item.secret) &&
        !vetoed(item) &&
        !(item.rule.generic && this.hasProviderPrefix(item.secret)),
    );
    return finish(resolveOverlaps(allowed), options.acceptLine, options.keepAllowed ?? false);
  }

  /**
   * Runs the prefilter over `text[from, until)` (`text` starts at offset `base` of the whole) and each triggered rule
   * in its window. Offsets kept in `scan` are of the whole text. Unless `text` ends where the whole does, `until`
   * stays `reach` short of its end, so no window is cut short by it.
   */
  private advance(scan: ScanState, text: string, from: number, until: number, base = 0): void {
    const { scannedUntil } = scan;
    // Lent for this call (a nested scan, of a Kubernetes Secret's decoded value, takes others).
    const pending = this.idleWindows.pop() ?? new PendingWindows(this.compiled.length);
    const found = this.idleHits.pop() ?? new KeywordHits();
    pending.runner = new TextWindows(this.compiled, text, scan, base);
    const { syntax, lockfile, documentation } = scan;
    const hits: Hits = {
      scan,
      syntax,
      lockfile,
      documentation,
      scannedUntil,
      text,
      length: text.length,
      bytes: null,
      base,
      pending,
      lineStart: -1,
      lineEnd: -2,
      gates: new GateCheck(text),
    };
    scan.state = this.handleHits(hits, found, from, until, scan.state);
    pending.flushAll();
    this.idleWindows.push(pending);
    this.idleHits.push(found);
  }

  /**
   * `advance`'s loop over the prefilter's hits in `hits.text[from, until)`; returns the prefilter's state at `until`.
   * Its own function so that V8's on-stack replacement of the loop does not also compile the code after it, which
   * had not run yet and was thrown away again ("wrong map"), about 50 times a scan.
   */
  private handleHits(hits: Hits, found: KeywordHits, from: number, until: number, state: number): number {
    const { scan, text, base, scannedUntil } = hits;
    const { automaton } = this;
    const { outputs } = automaton;
    const walk = this.nameKeywords.startWalk(text);
    for (let next = from; next < until; next = found.at) {
      found.find(automaton, scan.accepting, text, next, until, state);
      state = found.state;
      for (let hit = 0; hit < found.count; hit++) {
        const last = found.ends[hit]!;
        // Indexed loops: run cold (a history's first texts), `for … of` made an iterator result a keyword and a rule.
        const keywords = outputs[found.states[hit]!]!;
        for (let k = 0; k < keywords.length; k++) {
          const keyword = keywords[k]!;
          const at = last - keyword.length + 1;
          if (keyword.nameWord) this.nameKeywords.forEachBefore(walk, at, openNamed, hits);
          const items = keyword.items;
          for (let i = 0; i < items.length; i++) {
            const compiled = items[i]!;
            if (base + at >= scannedUntil[compiled.index]!) openWindow(compiled, at, last + 1, hits);
          }
        }
      }
    }
    return state;
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
        const order = this.compiled.findIndex((item) => item.holds(inner.rule));
        found.push({ rule: inner.rule, secret: inner.secret, start: value.start, end: value.end, order });
      }
    }
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
}
