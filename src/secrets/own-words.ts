/**
 * tollgate's own phrases that read like a credential to the masker: "this is not a pass: rerun …" is a password
 * assignment to the password rule. Masking is for values that came from the user's files, tools and environment; a
 * phrase marked here is tollgate's prose, so a match that lies wholly inside it is left as written. A match that
 * reaches beyond the phrase (a value placed next to it) is masked as always.
 *
 * A message marks a phrase where it declares it, once, at module level (`const NEXT = ownWords('…')`), so the mark
 * is in place before any text holding it is masked.
 */
const phrases = new Set<string>();

/** Marks `phrase` as tollgate's own words and returns it unchanged. */
export function ownWords(phrase: string): string {
  phrases.add(phrase);
  return phrase;
}

export interface OwnSpan {
  start: number;
  end: number;
}

/** Where marked phrases occur in `text`. */
export function ownWordSpans(text: string): OwnSpan[] {
  const spans: OwnSpan[] = [];
  for (const phrase of phrases) {
    for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
      spans.push({ start: at, end: at + phrase.length });
    }
  }
  return spans;
}

/** Whether [start, end) lies wholly inside one of `spans`. */
export function insideOwnWords(spans: readonly OwnSpan[], start: number, end: number): boolean {
  return spans.some((span) => span.start <= start && end <= span.end);
}
