/** Colour and cursor escapes, which programs print to terminals and CI logs alike. */
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The text without its terminal escapes, for reports and one-line summaries. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_ESCAPE, '');
}
