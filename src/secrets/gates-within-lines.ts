import type { CompiledRule } from './compiled-rule.js';

/**
 * Whether a scan that reads a hit's gates from whole lines around it (`byte-scan.ts`) decides as the whole text does:
 * false when some rule's gate regex is not analysed or may read past the end of the line after a line feed
 * (`crossesLine`, which a tile of whole lines could not see).
 */
export function gatesReadWithinLines(compiled: readonly CompiledRule[]): boolean {
  const analysed = new Set<RegExp>();
  for (const item of compiled) {
    const gate = item.outline.gate;
    if (gate === undefined || analysed.has(gate)) continue;
    analysed.add(gate);
    const read = gateReadOf(gate);
    if (!read.analysed || read.crossesLine) return false;
  }
  return true;
}

/** How a gate regex run from an offset reads, as far as lines go. */
export interface GateRead {
  /** False when it may look behind the offset, refer back to a group, or read code points (`u`, `v`) or lines (`m`). */
  readonly analysed: boolean;
  /**
   * Some atom may be read after one that takes a line feed (or such an atom repeats): it may read past a line's end.
   * When false, it reads no further than the first line feed after its start, included, which is what lets a scan of
   * bytes test it on a string of whole lines (`byte-scan.ts`).
   */
  readonly crossesLine: boolean;
}

export function gateReadOf(regex: RegExp): GateRead {
  const unsupported = { analysed: false, crossesLine: true };
  if (/[uvm]/.test(regex.flags)) return unsupported;
  const parse = new LineReadParser(regex.source);
  parse.alternatives();
  if (parse.unsupported || parse.at < regex.source.length) return unsupported;
  return { analysed: true, crossesLine: parse.crossesLine };
}

/** A recursive descent over the regex source that notes which atoms may take a line feed and what follows them. */
class LineReadParser {
  at = 0;
  unsupported = false;
  /** How many atoms may take `\n` (told conservatively: any escape that could name it counts). */
  lineFeedAtoms = 0;
  /** See `GateRead.crossesLine`. */
  crossesLine = false;
  constructor(private readonly source: string) {}

  alternatives(): void {
    this.sequence();
    while (this.source[this.at] === '|') {
      this.at++;
      this.sequence();
    }
  }

  private sequence(): void {
    let tookLineFeed = false;
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      // Anything after a line feed, even an assertion (`$`, `\b`), reads past it.
      if (tookLineFeed) this.crossesLine = true;
      const before = this.lineFeedAtoms;
      this.quantified();
      if (this.lineFeedAtoms > before) tookLineFeed = true;
    }
  }

  private quantified(): void {
    const lineFeedsBefore = this.lineFeedAtoms;
    this.atom();
    const { source } = this;
    const char = source[this.at];
    let repeats = false;
    if (char === '*' || char === '+') {
      this.at++;
      repeats = true;
    } else if (char === '?') this.at++;
    else if (char === '{') {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(this.at));
      if (bound) {
        this.at += bound[0].length;
        const times = bound[2] === undefined ? bound[1] : bound[3];
        repeats = times !== '1';
      }
    }
    if (repeats && source[this.at] === '?') this.at++;
    if (repeats && this.lineFeedAtoms > lineFeedsBefore) this.crossesLine = true;
  }

  private atom(): void {
    const { source } = this;
    const char = source[this.at]!;
    if (char === '(') {
      this.at++;
      if (source.startsWith('?<=', this.at) || source.startsWith('?<!', this.at)) this.unsupported = true;
      else if (source.startsWith('?:', this.at) || source.startsWith('?=', this.at) || source.startsWith('?!', this.at))
        this.at += 2;
      else if (source.startsWith('?<', this.at)) this.at = source.indexOf('>', this.at) + 1;
      this.alternatives();
      if (source[this.at] !== ')') this.unsupported = true;
      this.at++;
      return;
    }
    if (char === '[') this.characterClass();
    else if (char === '\\') this.escape(false);
    else {
      this.at++;
      if (char === '\n') this.lineFeedAtoms++;
    }
  }

  private characterClass(): void {
    const { source } = this;
    this.at++;
    const negated = source[this.at] === '^';
    if (negated) this.at++;
    const from = this.at;
    while (this.at < source.length && source[this.at] !== ']') {
      if (source[this.at] === '\\') this.escape(true);
      else this.at++;
    }
    if (new RegExp(`[${negated ? '^' : ''}${source.slice(from, this.at)}]`).test('\n')) this.lineFeedAtoms++;
    if (source[this.at] !== ']') this.unsupported = true;
    this.at++;
  }

  /** `\…` at `at`; a back reference is not analysed. In a class, the class itself is tested for a line feed. */
  private escape(inClass: boolean): void {
    const { source } = this;
    const kind = source[this.at + 1] ?? '';
    this.at += 2;
    if (/[1-9k]/.test(kind)) this.unsupported = true;
    if (!inClass && /[nsWDxuc0]/.test(kind)) this.lineFeedAtoms++;
    const hex = kind === 'x' ? 2 : kind === 'u' ? 4 : 0;
    const digits = source.slice(this.at, this.at + hex);
    if (hex > 0 && digits.length === hex && /^[0-9a-fA-F]+$/.test(digits)) this.at += hex;
  }
}
