import { defineRules } from '../rule.js';
import { base64UrlOf, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'mapbox-secret-token',
    title: 'Mapbox secret access token (sk.eyJ…)',
    severity: 'high',
    keywords: ['sk.eyJ'],
    pattern: /(?<![A-Za-z0-9_-])(sk\.eyJ[A-Za-z0-9_-]{20,200}\.[A-Za-z0-9_-]{20,40})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [`sk.${base64UrlOf(JSON.stringify({ u: 'acme-maps', a: 'cm0x9' }))}.${fakeToken('', 22, URL_SAFE)}`],
      ignore: [`pk.${base64UrlOf(JSON.stringify({ u: 'acme-maps', a: 'cm0x9' }))}.${fakeToken('', 22, URL_SAFE)}`],
    })),
  },
]);
