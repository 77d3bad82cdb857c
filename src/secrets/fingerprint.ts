import { crypto } from '../core/crypto-lazy.js';

/**
 * Stable identity of a finding that never contains the secret: SHA-256 of rule id, path and secret. Baselines and
 * finding ids are keyed by it, so a known secret stays known when lines move.
 */
export function secretFingerprint(ruleId: string, path: string, secret: string): string {
  return crypto()
    .createHash('sha256')
    .update(ruleId)
    .update('\0')
    .update(path)
    .update('\0')
    .update(secret)
    .digest('hex');
}
