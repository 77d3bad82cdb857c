import { checkedGate, isBase64Url } from '../gate-checks.js';
import { hitContext } from '../hit-context.js';
import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, lazySamples } from '../sample-tokens.js';

const isDigit = (code: number) => code >= 48 && code <= 57;

export default defineRules([
  prefixedToken({
    id: 'facebook-access-token',
    title: 'Facebook access token',
    prefix: 'EAACEdEose0cBA',
    body: '[0-9A-Za-z]{20,300}',
    match: () => [fakeToken('EAACEdEose0cBA', 120)],
  }),
  {
    // `APP_ID|APP_SECRET`: an app access token is the app's id and secret joined by a bar.
    id: 'facebook-app-access-token',
    title: 'Facebook app access token (app id|secret)',
    severity: 'critical',
    keywords: ['|'],
    // The bar is in ordinary code on every other line (`a || b`, shell pipes): only a digit before it and a secret
    // character after it let the rule look further, and the keyword pass itself records no other (its context: a
    // digit, the bar, the gate's 27 secret characters).
    gate: checkedGate(
      /[A-Za-z0-9_-]{27}/,
      (text, after) => isDigit(text.charCodeAt(after - 2)) && isBase64Url(text.charCodeAt(after)),
      hitContext(['0-9'], Array(27).fill('A-Za-z0-9_-')),
    ),
    pattern: /(?<![0-9A-Za-z|])([0-9]{15,16}\|[A-Za-z0-9_-]{27}|[0-9]{15,16}\|[a-f0-9]{32})(?![A-Za-z0-9_|-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [
        `${fakeToken('1', 15, '0123456789')}|${fakeToken('', 27, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')}`,
      ],
      ignore: [`${'1'.repeat(16)}|${'a'.repeat(27)}`],
    })),
  },
  namedValue({
    id: 'facebook-app-secret',
    title: 'Facebook app secret',
    provider: 'facebook',
    body: '[a-f0-9]{32}',
    key: 'FACEBOOK_APP_SECRET',
    match: () => [fakeHex(32)],
  }),
]);
