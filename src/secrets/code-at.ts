/**
 * `text.charCodeAt(at)`, or -1 past the text's end: a read past a string's end is an out-of-bounds deoptimization of
 * the scan loop V8 compiled (and a recompilation, in every isolate).
 */
export function codeAt(text: string, at: number): number {
  return at < text.length ? text.charCodeAt(at) : -1;
}
