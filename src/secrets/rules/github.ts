import { hasValidTokenChecksum } from '../checksum.js';
import { defineRules, type SecretRule } from '../rule.js';
import { ALPHANUMERIC, fakeChecksumToken, fakeToken, lazySamples, wrongChecksumToken } from '../sample-tokens.js';

/** GitHub's checksummed token formats: `<prefix>` + 30 random base62 + 6 base62 CRC32. A failed checksum is not a token. */
function checksummed(prefix: string, id: string, title: string): SecretRule {
  return {
    id,
    title: `${title} (${prefix}…)`,
    severity: 'critical',
    keywords: [prefix],
    pattern: new RegExp(`(?<![A-Za-z0-9_])(${prefix}[A-Za-z0-9]{36})(?![A-Za-z0-9])`),
    validate: hasValidTokenChecksum,
    samples: lazySamples(() => ({
      match: [fakeChecksumToken(prefix), fakeChecksumToken(prefix)],
      ignore: [wrongChecksumToken(prefix), `${prefix}${'x'.repeat(36)}`, `${prefix}\${GITHUB_TOKEN}`],
    })),
  };
}

export default defineRules([
  checksummed('ghp_', 'github-pat', 'GitHub personal access token'),
  checksummed('gho_', 'github-oauth-token', 'GitHub OAuth access token'),
  checksummed('ghu_', 'github-user-to-server-token', 'GitHub App user-to-server token'),
  checksummed('ghs_', 'github-server-to-server-token', 'GitHub App installation token'),
  checksummed('ghr_', 'github-refresh-token', 'GitHub App refresh token'),
  {
    id: 'github-fine-grained-pat',
    title: 'GitHub fine-grained personal access token (github_pat_…)',
    severity: 'critical',
    keywords: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})(?![A-Za-z0-9])/,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [`github_pat_${fakeToken('', 22)}_${fakeToken('', 59, ALPHANUMERIC)}`],
      ignore: [`github_pat_${'A'.repeat(22)}_${'b'.repeat(59)}`, `github_pat_\${TOKEN}`],
    })),
  },
]);
