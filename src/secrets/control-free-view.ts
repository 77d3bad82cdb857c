/**
 * Output as a terminal shows it: a token printed with a colour code or a carriage return in the middle
 * (`ghp_abc\x1b[31mdef`, a progress line's `\r`) is one token on screen and in a pasted log, but two halves to a
 * pattern. Masking scans this view and maps what it finds back onto the text as written.
 */
const CONTROL = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\r/g;

export interface ControlFreeView {
  /** The text without ANSI escape sequences and carriage returns. */
  text: string;
  /** Offset in the original text of the view's character at `index` (`index` may be `text.length`). */
  startAt(index: number): number;
  /** Offset in the original text just after the view's character at `index - 1`. */
  endAt(index: number): number;
}

/** Null when the text has nothing to remove (the common case: no mapping to build). */
export function controlFreeView(original: string): ControlFreeView | null {
  if (!original.includes('\u001b') && !original.includes('\r')) return null;
  const kept: number[] = [];
  let text = '';
  let at = 0;
  CONTROL.lastIndex = 0;
  for (let match = CONTROL.exec(original); match !== null; match = CONTROL.exec(original)) {
    for (let i = at; i < match.index; i++) kept.push(i);
    text += original.slice(at, match.index);
    at = match.index + match[0].length;
  }
  for (let i = at; i < original.length; i++) kept.push(i);
  text += original.slice(at);
  return {
    text,
    startAt: (index) => (index < kept.length ? kept[index]! : original.length),
    endAt: (index) => (index === 0 ? 0 : kept[index - 1]! + 1),
  };
}

/** The escape sequences inside a masked stretch, kept after the mask so the terminal's colours stay as they were. */
export function controlCodesIn(text: string): string {
  return (text.match(/\u001b\[[0-9;?]*[A-Za-z]/g) ?? []).join('');
}
