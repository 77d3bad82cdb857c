import { cloudflareChecksum, hasValidCloudflareChecksum } from '../checksum.js';
import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, URL_SAFE } from '../sample-tokens.js';

/** `prefix` + 40 random characters + their CRC32 checksum; with `wrong`, a checksum that does not match. */
function scannableSample(prefix: string, wrong = false): string {
  const body = fakeToken('', 40);
  const sum = cloudflareChecksum(body);
  return prefix + body + (wrong ? sum.slice(0, 7) + (sum[7] === '0' ? '1' : '0') : sum);
}

const scannable = (prefix: string, id: string, title: string) =>
  prefixedToken({
    id,
    title,
    prefix,
    body: '[A-Za-z0-9]{40}[a-f0-9]{8}',
    severity: 'critical',
    validate: hasValidCloudflareChecksum,
    match: () => [scannableSample(prefix)],
    ignore: () => [scannableSample(prefix, true)],
  });

export default defineRules([
  namedValue({
    id: 'cloudflare-api-token',
    title: 'Cloudflare API token',
    provider: 'cloudflare',
    body: '[A-Za-z0-9_-]{40}',
    key: 'CLOUDFLARE_API_TOKEN',
    severity: 'critical',
    match: () => [fakeToken('', 40, URL_SAFE)],
  }),
  namedValue({
    id: 'cloudflare-global-api-key',
    title: 'Cloudflare global API key',
    provider: 'cloudflare',
    body: '[a-f0-9]{37}',
    key: 'CLOUDFLARE_API_KEY',
    severity: 'critical',
    match: () => [fakeHex(37)],
  }),
  // Since 2026 every new or rolled credential is prefixed and checksummed, so a wrong checksum is a look-alike.
  scannable('cfat_', 'cloudflare-account-api-token', 'Cloudflare account API token'),
  scannable('cfut_', 'cloudflare-user-api-token', 'Cloudflare user API token'),
  scannable('cfk_', 'cloudflare-api-key', 'Cloudflare global API key'),
  prefixedToken({
    id: 'cloudflare-origin-ca-key',
    title: 'Cloudflare Origin CA key',
    prefix: 'v1.0-',
    body: '[a-f0-9]{24}-[a-f0-9]{146}',
    match: () => [`v1.0-${fakeHex(24)}-${fakeHex(146)}`],
  }),
]);
