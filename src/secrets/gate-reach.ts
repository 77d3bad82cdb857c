/**
 * How far a gate regex can read from where it is tested, when that is bounded: for a regex without `^`, `$`, `\b`,
 * `\B`, lookbehinds, back references or unbounded quantifiers, the longest match with every lookahead counted as a
 * match of it, in UTF-16 units. Such a regex, tested sticky at an offset, reads nothing before it and nothing past
 * that many units (the engine's every path stops at each atom's bound, and a lookahead reads no further than a match
 * of it would), so it decides alike on the whole text and on the `reach` units from that offset, or all there are:
 * every unit it reads is the same in both, and neither end is asserted. The byte scan (`byte-scan.ts`) tests such a
 * gate on those units alone where no tile holds the hit: a tile is whole lines, and a minified line is a megabyte
 * string, decoded when it holds any non-ASCII text.
 */

/** The longest reach of `regex` in units, or -1 when unbounded, asserted, or not analysed here. */
export function gateReachOf(regex: RegExp): number {
  if (/[uvm]/.test(regex.flags)) return -1;
  const parse = new ReachParser(regex.source);
  const reach = parse.alternatives();
  return parse.at === regex.source.length && Number.isFinite(reach) ? reach : -1;
}

/** A recursive descent over the regex source; `Infinity` (or `NaN`) for anything not bounded or not analysed. */
class ReachParser {
  at = 0;
  constructor(private readonly source: string) {}

  alternatives(): number {
    let longest = this.sequence();
    while (this.source[this.at] === '|') {
      this.at++;
      longest = Math.max(longest, this.sequence());
    }
    return longest;
  }

  private sequence(): number {
    let total = 0;
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      total += this.quantified();
      if (!Number.isFinite(total)) {
        this.at = this.source.length;
        return Number.POSITIVE_INFINITY;
      }
    }
    return total;
  }

  private quantified(): number {
    const atom = this.atom();
    const { source } = this;
    const char = source[this.at];
    let times = 1;
    if (char === '*' || char === '+') return Number.POSITIVE_INFINITY;
    if (char === '?') {
      this.at++;
    } else if (char === '{') {
      const bound = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(this.at));
      if (bound === null) return Number.POSITIVE_INFINITY; // a literal `{`, which annex B allows: not analysed
      this.at += bound[0].length;
      if (bound[2] !== undefined && bound[3] === '') return Number.POSITIVE_INFINITY;
      times = Number(bound[3] ?? bound[1]);
    } else return atom;
    if (source[this.at] === '?') this.at++; // lazy: the same longest match
    return atom * times;
  }

  /** The longest an atom reads. */
  private atom(): number {
    const { source } = this;
    const char = source[this.at];
    if (char === '(') {
      // Plain and named groups, and lookaheads, whose reads ahead count as much as a match of them would (an upper
      // bound on how far it reads); a lookbehind reads before the offset.
      if (source[this.at + 1] === '?') {
        if (source[this.at + 2] === ':' || source[this.at + 2] === '=' || source[this.at + 2] === '!') this.at += 3;
        else if (source[this.at + 2] === '<' && /^[A-Za-z_$]/.test(source[this.at + 3] ?? '')) {
          const close = source.indexOf('>', this.at);
          if (close === -1) return Number.POSITIVE_INFINITY;
          this.at = close + 1;
        } else return Number.POSITIVE_INFINITY;
      } else this.at++;
      const inner = this.alternatives();
      if (source[this.at] !== ')') return Number.POSITIVE_INFINITY;
      this.at++;
      return inner;
    }
    if (char === '[') {
      // A class is one unit; its end is the first `]` not escaped (and not first, where `[]` and `[^]` read it).
      let at = this.at + 1;
      if (source[at] === '^') at++;
      if (source[at] === ']') return Number.POSITIVE_INFINITY;
      for (; at < source.length && source[at] !== ']'; at++) if (source[at] === '\\') at++;
      if (at >= source.length) return Number.POSITIVE_INFINITY;
      this.at = at + 1;
      return 1;
    }
    if (char === '\\') {
      const next = source[this.at + 1] ?? '';
      // Assertions and back references (`\b`, `\B`, `\1`, `\k<…>`) and escapes of more than one unit are not analysed.
      if (/[bBk1-9pPcu]/.test(next)) return Number.POSITIVE_INFINITY;
      if (next === 'x') {
        if (!/^[0-9A-Fa-f]{2}$/.test(source.slice(this.at + 2, this.at + 4))) return Number.POSITIVE_INFINITY;
        this.at += 4;
        return 1;
      }
      this.at += 2;
      return 1;
    }
    if (char === '^' || char === '$' || char === ')' || char === '|' || char === undefined)
      return Number.POSITIVE_INFINITY;
    if (char === '*' || char === '+' || char === '?' || char === '{' || char === '}' || char === ']')
      return Number.POSITIVE_INFINITY;
    this.at++;
    return 1;
  }
}
