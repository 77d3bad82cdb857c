import { stringify } from 'yaml';
import { TollgateError } from '../../errors.js';
import type { DetectedCheck } from './detect-checks.js';

/** The template's `checks:` line (nothing after it: the default, no checks). */
const CHECKS_LINE = /^checks:[ \t]*$/m;

/**
 * The config template with these checks active under `checks:`, each with a comment saying where it came from; the
 * template's commented examples stay below them. No checks: the template unchanged.
 */
export function templateWithChecks(template: string, checks: readonly DetectedCheck[]): string {
  if (checks.length === 0) return template;
  const line = CHECKS_LINE.exec(template);
  if (!line)
    throw new TollgateError('io', 'docs/config.md: the config template has no "checks:" line; reinstall tollgate');
  const entries = checks.map(
    (check) =>
      `  - name: ${scalar(check.name)}\n    run: ${scalar(check.run)}  # found by tollgate init: ${oneLine(check.source)}\n`,
  );
  const at = line.index + line[0].length + 1;
  return `${template.slice(0, at)}${entries.join('')}${template.slice(at)}`;
}

/** A YAML scalar for this string: plain when YAML reads it back as the same string, quoted otherwise. */
function scalar(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
