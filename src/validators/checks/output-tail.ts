/** The last `count` lines of a command's output, with a note of how many were cut, for reports. */
export function lastLines(text: string, count: number): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  if (lines.length <= count) return lines.join('\n');
  return [`… ${lines.length - count} earlier line(s) omitted`, ...lines.slice(-count)].join('\n');
}
