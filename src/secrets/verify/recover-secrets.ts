import { secretFingerprint } from '../fingerprint.js';
import type { ScanTarget } from '../scan-targets.js';
import type { RawSecret, SecretScanner } from '../scanner.js';
import { decodeText } from '../text-decoding.js';
import type { SecretFinding } from '../to-finding.js';
import { VERIFIERS } from './verifiers.js';
import type { VerifyCandidate } from './verify-secrets.js';

/**
 * Findings carry no value (only a masked one and a fingerprint), so the values to verify are found again: the files
 * with a verifiable finding are read and scanned once more, and each value is matched to its finding by fingerprint.
 * The values live only in the returned objects, in memory.
 */
export async function recoverSecrets(
  findings: readonly SecretFinding[],
  targets: readonly ScanTarget[],
  scanner: SecretScanner,
): Promise<VerifyCandidate[]> {
  const wanted = new Set(findings.filter((f) => VERIFIERS.has(f.ruleId)).map((f) => f.fingerprint));
  if (wanted.size === 0) return [];
  const paths = new Set(findings.filter((f) => wanted.has(f.fingerprint)).map((f) => f.path));
  const candidates = new Map<string, VerifyCandidate>();
  for (const target of targets) {
    if (!paths.has(target.path)) continue;
    const content = await target.read().catch(() => null);
    if (content === null) continue;
    const text = typeof content === 'string' ? content : decodeText(content)?.text;
    if (text === undefined) continue;
    const raws = scanner.scanText(text, { path: target.path, keepAllowed: true });
    for (const raw of raws) {
      const fingerprint = secretFingerprint(raw.rule.id, target.path, raw.secret);
      if (!wanted.has(fingerprint) || candidates.has(fingerprint)) continue;
      const companion = companionOf(raw, raws, text);
      candidates.set(fingerprint, {
        fingerprint,
        ruleId: raw.rule.id,
        secret: raw.secret,
        ...(companion ? { companion } : {}),
      });
    }
  }
  return [...candidates.values()];
}

/** The nearest value (by line) of the rule or shape the verifier pairs this one with, in the same file. */
function companionOf(raw: RawSecret, raws: readonly RawSecret[], text: string): string | undefined {
  const verifier = VERIFIERS.get(raw.rule.id);
  if (verifier?.companionPattern) return nearestMatch(verifier.companionPattern, text, raw.line);
  const rule = verifier?.companionRule;
  if (!rule) return undefined;
  let best: RawSecret | undefined;
  for (const other of raws)
    if (other.rule.id === rule && (!best || Math.abs(other.line - raw.line) < Math.abs(best.line - raw.line)))
      best = other;
  return best?.secret;
}

/** The match of `pattern` (its first group, else the whole match) whose line is nearest `line` (1-based). */
function nearestMatch(pattern: RegExp, text: string, line: number): string | undefined {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  let best: { value: string; distance: number } | undefined;
  let lineOf = 1;
  let counted = 0;
  for (const match of text.matchAll(global)) {
    for (; counted < match.index; counted++) if (text.charCodeAt(counted) === 10) lineOf++;
    const distance = Math.abs(lineOf - line);
    if (!best || distance < best.distance) best = { value: match[1] ?? match[0], distance };
  }
  return best?.value;
}
