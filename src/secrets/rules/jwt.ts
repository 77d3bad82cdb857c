import { defineRules } from '../rule.js';
import { base64UrlOf, fakeJwt, lazySamples } from '../sample-tokens.js';

function decodePart(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A JWT whose header decodes to JSON with a real `alg`. Tokens made to be public are not secrets: Supabase's `anon`
 * key is shipped to every browser.
 */
function isSecretJwt(token: string): boolean {
  const [header, payload] = token.split('.');
  const decodedHeader = decodePart(header ?? '');
  if (!decodedHeader || typeof decodedHeader.alg !== 'string' || decodedHeader.alg === 'none') return false;
  return decodePart(payload ?? '')?.role !== 'anon';
}

export default defineRules([
  {
    id: 'jwt-token',
    title: 'JSON Web Token (eyJ…)',
    severity: 'medium',
    commonInExamples: true,
    keywords: ['eyJ'],
    pattern:
      /(?<![A-Za-z0-9_-])(eyJ[A-Za-z0-9_-]{10,500}\.eyJ[A-Za-z0-9_-]{10,4000}\.[A-Za-z0-9_-]{20,800})(?![A-Za-z0-9_.-])/,
    validate: isSecretJwt,
    samples: lazySamples(() => ({
      match: [fakeJwt()],
      ignore: [
        // jwt.io's example token: published in every tutorial.
        `${base64UrlOf('{"alg":"HS256","typ":"JWT"}')}.${base64UrlOf('{"sub":"1234567890","name":"John Doe","iat":1516239022}')}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`,
        `${base64UrlOf('{"alg":"none"}')}.${base64UrlOf('{"sub":"anonymous-user"}')}.`,
        fakeJwt({ iss: 'supabase', ref: 'acmeorders', role: 'anon', iat: 1767225600 }),
      ],
    })),
  },
]);
