import { randomBytes } from 'node:crypto';

/**
 * One `name<<DELIM` entry for a runner file such as `GITHUB_OUTPUT` or `GITHUB_ENV`.
 * The delimiter is random and re-drawn until it occurs in no line of the value, so a value
 * (from a report, a finding message, a file name) can never end the entry early and set another output.
 */
export function runnerFileEntry(name: string, value: string, draw: () => string = randomDelimiter): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    throw new Error(`runner output name "${name}" is invalid: use letters, digits, "_" or "-"`);
  }
  const lines = value.split(/\r?\n/);
  let delimiter = draw();
  while (lines.includes(delimiter)) delimiter = draw();
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function randomDelimiter(): string {
  return `ghadelimiter_${randomBytes(16).toString('hex')}`;
}
