import { compareText } from '../core/text-order.js';
import type { SecretRule } from './rule.js';
import { builtinRules, isFormatFile, providerCount, providerFiles } from './rules/index.js';
import { VERIFIERS } from './verify/verifiers.js';

/**
 * The rule table in the docs and the counts in the README and the secrets guide, generated from the rules themselves
 * (`npm run docs:rules`), so that they cannot drift: a test compares the committed files with this output.
 */

export const RULE_TABLE_PATH = 'docs/validators/secret-rules.md';

export interface RuleCounts {
  readonly rules: number;
  readonly providers: number;
}

export function ruleCounts(): RuleCounts {
  return { rules: builtinRules.length, providers: providerCount() };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/`/g, "'");

function row(file: string, rule: SecretRule): string {
  const verified = VERIFIERS.has(rule.id) ? 'yes' : '';
  const kind = isFormatFile(file) ? 'format' : 'provider';
  return `| ${cell(rule.provider ?? '')} | \`${rule.id}\` | ${cell(rule.title)} | ${rule.severity} | ${kind} | ${verified} | [format](${rule.reference ?? ''}) |`;
}

/** The whole generated `docs/validators/secret-rules.md`. */
export function renderRuleTable(): string {
  const { rules, providers } = ruleCounts();
  const rows = Object.entries(providerFiles())
    .flatMap(([file, list]) => list.map((rule) => ({ file, rule })))
    .sort(
      (a, b) =>
        (a.rule.provider ?? '').localeCompare(b.rule.provider ?? '', 'en', { sensitivity: 'base' }) ||
        compareText(a.rule.id, b.rule.id),
    )
    .map(({ file, rule }) => row(file, rule));
  return [
    '# Built-in secret rules',
    '',
    '<!-- Generated from src/secrets/rules/ by `npm run docs:rules`; edit the rules, not this file. -->',
    '',
    `${rules} rules for ${providers} providers: their token formats, and credential formats that are nobody's in`,
    'particular (kind "format": private keys, passwords, URLs with passwords). "Verified": `tollgate scan --verify` can ask the provider',
    'whether a finding is live (see [secrets.md](secrets.md#live-verification---verify-secretsverify)). "Format" links to where the format is',
    "documented: the provider's docs, GitHub's list of supported secret-scanning patterns, or the public detector it",
    'was learnt from. Rules named `…-named-key` find a key with no prefix of its own only when it is assigned to a name',
    "that holds the provider's name and a secret word (`abyssale_api_key = …`).",
    '',
    '| Provider | Rule | Finds | Severity | Kind | Verified | Format |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** `text` (README.md or docs/validators/secrets.md) with its rule and provider counts brought up to date. */
export function withRuleCounts(text: string): string {
  const { rules, providers } = ruleCounts();
  return text
    .replace(
      /The rule pack has \d+ rules for \d+ providers/g,
      `The rule pack has ${rules} rules for ${providers} providers`,
    )
    .replace(
      /credentials the change adds: \d+ rules for \d+ providers/g,
      `credentials the change adds: ${rules} rules for ${providers} providers`,
    );
}
