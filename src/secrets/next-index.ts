/**
 * The first offset of one character at or after an offset, remembered for the latest text: a later offset up to the
 * one found has the same answer. Keyword hits come in order, so each part of a text is searched once, by the engine's
 * own search (no loop over each character, which a scan's first megabytes run before it is compiled), and no string
 * is cut to bound it.
 */
export class NextIndex {
  private text = '';
  private from = 0;
  /** The first offset of the character at or after `from`, or -1 when there is none. */
  private found = -1;
  /** In `used`: this search holds a text that the next `forgetNextIndexes` must drop. */
  private listed = false;

  constructor(private readonly char: string) {}

  next(text: string, from: number): number {
    if (text === this.text && this.from <= from && (from <= this.found || this.found === -1)) return this.found;
    if (!this.listed) {
      this.listed = true;
      used.push(this);
    }
    this.text = text;
    this.from = from;
    this.found = text.indexOf(this.char, from);
    return this.found;
  }

  forget(): void {
    this.text = '';
    this.from = 0;
    this.found = -1;
    this.listed = false;
  }
}

/**
 * The searches asked since the last `forgetNextIndexes`. Most texts of a history (thousands of small ones) reach no
 * gate that searches: their scan then resets nothing (resetting all seven searches per text was 2 % of a history scan).
 */
const used: NextIndex[] = [];

/**
 * Called as each text's scan starts. Within a text the string is the same one, and `===` compares references; a new
 * text of equal length (a copy of the last file) would be compared character by character at every hit.
 */
export function forgetNextIndexes(): void {
  if (used.length === 0) return;
  for (let index = 0; index < used.length; index++) used[index]!.forget();
  used.length = 0;
}
