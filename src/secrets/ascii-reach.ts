/**
 * How a regular expression run from an offset reads: how far, whether it stays within the line, and how it treats
 * characters outside ASCII. The byte scan (`byte-scan.ts`) uses whether a gate is analysed and stays within its line
 * (`gatesReadWithinLines`); the reach over non-ASCII text is what an earlier byte reading (Latin-1, each non-ASCII
 * character 2–4 characters from 0x80–0xFF) needed, kept with its tests as the parser's own measure.
 */

/**
 * What a gate regex reads past the offset it runs from, for the byte reading. Where the text from that offset is ASCII
 * up to some non-ASCII character, both readings are the same text up to it and have a non-ASCII character there;
 * an atom that takes no non-ASCII character (`[A-Za-z0-9_]`, a literal, `\d`, `\b`, `[ \t]+`) fails on it in both
 * alike, so only an atom that may take one (`[^"\r\n]{0,40}`, `\S`, `.`) could decide unlike. This returns:
 * - `0` when no atom takes non-ASCII: the verdict is the same wherever non-ASCII text sits;
 * - else one more than the furthest offset such an atom may read at (its repeats counted): the text must be ASCII
 *   that far (`Infinity` when that is after an unbounded repeat, `[ \t]*[^"]`);
 * - `-1` when it may look behind the offset, refer back to a group, or read code points (`u`, `v`) or lines (`m`):
 *   not analysed, and the byte reading is not used.
 */
export function gateReach(regex: RegExp): number {
  return gateReadOf(regex).reach;
}

/** What a gate regex reads from the offset it runs at. */
export interface GateRead {
  /** See `gateReach`. */
  readonly reach: number;
  /** The most characters it reads (its longest match, lookaheads counted, and one more). */
  readonly length: number;
  /** No atom takes a line feed: it reads no further than the next one. */
  readonly withinLine: boolean;
  /**
   * Some atom may be read after one that takes a line feed (or such an atom repeats): it may read past a line's end.
   * When false, it reads no further than the first line feed after its start, included, which is what lets a scan of
   * bytes test it on a string of whole lines (`byte-scan.ts`).
   */
  readonly crossesLine: boolean;
}

/** `gateReach`, with the regex's whole reach and whether it stays within the line. */
export function gateReadOf(regex: RegExp): GateRead {
  const unsupported = { reach: -1, length: Number.POSITIVE_INFINITY, withinLine: false, crossesLine: true };
  if (/[uvm]/.test(regex.flags)) return unsupported;
  const parse = new ReachParser(regex.source);
  const length = parse.alternatives(0) + 1;
  if (parse.unsupported || parse.at < regex.source.length) return unsupported;
  return {
    reach: parse.nonAscii === 0 ? 0 : parse.deepest + 1,
    length,
    withinLine: !parse.takesLineFeed,
    crossesLine: parse.crossesLine,
  };
}

/**
 * A recursive descent over the regex source. Each part is parsed with the furthest offset it may start at and
 * returns the most it consumes (a lookahead counted as consuming: it reads that far).
 */
class ReachParser {
  at = 0;
  unsupported = false;
  /** How many atoms that take non-ASCII were seen, and the furthest offset any of them may read at. */
  nonAscii = 0;
  deepest = 0;
  /** Whether some atom may take `\n` (told conservatively: any escape that could name it counts), and how many do. */
  takesLineFeed = false;
  lineFeedAtoms = 0;
  /** See `GateRead.crossesLine`. */
  crossesLine = false;
  constructor(private readonly source: string) {}

  alternatives(start: number): number {
    let longest = this.sequence(start);
    while (this.source[this.at] === '|') {
      this.at++;
      longest = Math.max(longest, this.sequence(start));
    }
    return longest;
  }

  private sequence(start: number): number {
    let total = 0;
    let tookLineFeed = false;
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      // Anything after a line feed, even an assertion (`$`, `\b`), reads past it.
      if (tookLineFeed) this.crossesLine = true;
      const before = this.lineFeedAtoms;
      total += this.quantified(start + total);
      if (this.lineFeedAtoms > before) tookLineFeed = true;
    }
    return total;
  }

  private quantified(start: number): number {
    const before = this.nonAscii;
    const lineFeedsBefore = this.lineFeedAtoms;
    const group = this.source[this.at] === '(';
    const atom = this.atom(start);
    const { source } = this;
    const char = source[this.at];
    let times = 1;
    if (char === '*' || char === '+') {
      this.at++;
      times = Number.POSITIVE_INFINITY;
    } else if (char === '?') this.at++;
    else if (char === '{') {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(this.at));
      if (bound) {
        this.at += bound[0].length;
        times =
          bound[2] === undefined ? Number(bound[1]) : bound[3] === '' ? Number.POSITIVE_INFINITY : Number(bound[3]);
      }
    }
    if (times !== 1 && source[this.at] === '?') this.at++;
    if (times !== 1 && this.lineFeedAtoms > lineFeedsBefore) this.crossesLine = true;
    const total = atom === 0 ? 0 : atom * times;
    // A group's atoms counted their own offsets for one pass through it; repeated, they may read further on.
    if (this.nonAscii > before && (!group || times !== 1)) this.deepest = Math.max(this.deepest, start + total);
    return total;
  }

  private atom(start: number): number {
    const { source } = this;
    const char = source[this.at]!;
    if (char === '(') {
      this.at++;
      if (source.startsWith('?<=', this.at) || source.startsWith('?<!', this.at)) this.unsupported = true;
      else if (source.startsWith('?:', this.at) || source.startsWith('?=', this.at) || source.startsWith('?!', this.at))
        this.at += 2;
      else if (source.startsWith('?<', this.at)) this.at = source.indexOf('>', this.at) + 1;
      const inner = this.alternatives(start);
      if (source[this.at] !== ')') this.unsupported = true;
      this.at++;
      return inner;
    }
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape(false);
    this.at++;
    if (char === '^' || char === '$') return 0;
    if (char === '.' || char.charCodeAt(0) >= 0x80) this.nonAscii++;
    if (char === '\n') this.tookLineFeed();
    return 1;
  }

  private tookLineFeed(): void {
    this.takesLineFeed = true;
    this.lineFeedAtoms++;
  }

  private characterClass(): number {
    const { source } = this;
    this.at++;
    const negated = source[this.at] === '^';
    if (negated) {
      this.nonAscii++;
      this.at++;
    }
    const from = this.at;
    let takesNonAscii = false;
    while (this.at < source.length && source[this.at] !== ']') {
      if (source[this.at] === '\\') takesNonAscii = this.escape(true) === -1 || takesNonAscii;
      else {
        if (source.charCodeAt(this.at) >= 0x80) takesNonAscii = true;
        this.at++;
      }
    }
    if (takesNonAscii) this.nonAscii++;
    if (new RegExp(`[${negated ? '^' : ''}${source.slice(from, this.at)}]`).test('\n')) this.tookLineFeed();
    if (source[this.at] !== ']') this.unsupported = true;
    this.at++;
    return 1;
  }

  /**
   * `\…` at `at`: its width (0 for `\b`); in a class, -1 when it takes non-ASCII (counted by the class), outside one
   * such an escape is counted here. A back reference is not analysed.
   */
  private escape(inClass: boolean): number {
    const { source } = this;
    const kind = source[this.at + 1] ?? '';
    this.at += 2;
    if (/[1-9k]/.test(kind)) this.unsupported = true;
    if ((kind === 'b' || kind === 'B') && !inClass) return 0;
    if (!inClass && /[nsWDxuc0]/.test(kind)) this.tookLineFeed();
    let takesNonAscii = /[sSWDpP]/.test(kind);
    const hex = kind === 'x' ? 2 : kind === 'u' ? 4 : 0;
    if (hex > 0) {
      const digits = source.slice(this.at, this.at + hex);
      if (/^[0-9a-fA-F]+$/.test(digits) && digits.length === hex) {
        this.at += hex;
        if (Number.parseInt(digits, 16) >= 0x80) takesNonAscii = true;
      }
    }
    if (!takesNonAscii) return 1;
    if (inClass) return -1;
    this.nonAscii++;
    return 1;
  }
}
