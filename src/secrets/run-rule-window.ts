import { type CompiledRule, locateRegex, searchRegex } from './compiled-rule.js';
import type { MatchContext } from './rule.js';
import { accepts, type Found, rejectionOf, type Span, secretOf, secretValueOf } from './scan-results.js';
import type { SeenMatches } from './seen-matches.js';
import type { FileSyntax } from './syntax.js';

/** What one rule's run in a window reads and adds to: the scan's syntax, its findings, vetoes and rejections. */
export interface RuleWindowState {
  readonly syntax: FileSyntax;
  readonly found: Found[];
  readonly seen: SeenMatches;
  readonly vetoed: Span[];
  /** The rejected candidates, collected only when the scan was asked to keep them. */
  readonly rejected: Found[] | null;
}

/**
 * Runs one rule's regex over `text[start, end)` (`text` starts at offset `base` of the whole) and records each match
 * once: accepted values as found, values the rule recognised and rejected as vetoes (and rejections when kept).
 */
export function runRuleWindow(
  compiled: CompiledRule,
  text: string,
  start: number,
  end: number,
  scan: RuleWindowState,
  cutShort = false,
  base = 0,
): void {
  const { rule } = compiled;
  const regex = searchRegex(compiled);
  const window = text.slice(start, end);
  scan.seen.enterWindow(compiled.index, base + start, base + end);
  regex.lastIndex = 0;
  for (let match = regex.exec(window); match !== null; match = regex.exec(window)) {
    if (match[0].length === 0) regex.lastIndex++;
    // A match that runs into a window cut inside the line may be a truncated value; the next window sees it whole.
    if (cutShort && match.index + match[0].length === window.length) continue;
    const value = secretValueOf(match, rule.secretGroup, compiled.secretGroups);
    if (!value) continue;
    if (!scan.seen.firstTime(compiled.index, base + start + match.index, match[0].length)) continue;
    const groups = match.groups;
    // One object shape for every match: a conditional spread made each check that reads it slow (keyword-dense text).
    const context: MatchContext = {
      name: groups === undefined ? undefined : (groups.name ?? groups.envName),
      group: value.group,
      syntax: scan.syntax,
      host: groups === undefined ? undefined : groups.host,
    };
    const accepted = accepts(rule, value.secret, context);
    // Most matches in keyword-dense text are rejected generic values: where a secret sits is worked out (a second,
    // sticky run with group offsets) only for those that count.
    if (!accepted && (rule.generic || rule.claimsRejected?.(value.secret, context) === false)) continue;
    const locate = locateRegex(compiled);
    locate.lastIndex = match.index;
    const located = secretOf(locate.exec(window)!, rule.secretGroup, compiled.secretGroups);
    if (!located) continue;
    const absolute = base + start + located.start;
    if (!accepted) {
      // A provider rule that recognised the shape and rejected the value (wrong checksum, placeholder password)
      // has the last word: a generic rule may not report the same text.
      scan.vetoed.push({ start: absolute, end: absolute + located.secret.length });
      scan.rejected?.push({
        rule,
        order: compiled.index,
        secret: located.secret,
        start: absolute,
        end: absolute + located.secret.length,
        rejected: rejectionOf(rule, value.secret, context) ?? 'rejected by the rule',
      });
      continue;
    }
    scan.found.push({
      rule,
      order: compiled.index,
      secret: located.secret,
      start: absolute,
      end: absolute + located.secret.length,
    });
  }
}
