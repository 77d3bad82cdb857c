import { defineRules } from '../rule.js';
import { fakeToken, lazySamples } from '../sample-tokens.js';

export default defineRules([
  {
    id: 'stripe-secret-key',
    title: 'Stripe live secret key (sk_live_…)',
    severity: 'critical',
    keywords: ['sk_live_'],
    pattern: /(?<![A-Za-z0-9_])(sk_live_[A-Za-z0-9]{24,247})(?![A-Za-z0-9])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [fakeToken('sk_live_', 24), fakeToken('sk_live_', 99)],
      ignore: [`pk_live_${fakeToken('', 24)}`, 'sk_live_' + 'x'.repeat(24), `sk_live_\${STRIPE_KEY}`],
    })),
  },
  {
    id: 'stripe-restricted-key',
    title: 'Stripe live restricted key (rk_live_…)',
    severity: 'critical',
    keywords: ['rk_live_'],
    pattern: /(?<![A-Za-z0-9_])(rk_live_[A-Za-z0-9]{24,247})(?![A-Za-z0-9])/,
    entropy: 3.5,
    samples: lazySamples(() => ({ match: [fakeToken('rk_live_', 24)], ignore: ['rk_live_' + '0'.repeat(24)] })),
  },
  {
    id: 'stripe-test-secret-key',
    title: 'Stripe test-mode secret key (sk_test_…)',
    severity: 'low',
    keywords: ['sk_test_', 'rk_test_'],
    pattern: /(?<![A-Za-z0-9_])([sr]k_test_[A-Za-z0-9]{24,247})(?![A-Za-z0-9])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [fakeToken('sk_test_', 24)],
      ignore: [`pk_test_${fakeToken('', 24)}`, 'sk_test_' + 'x'.repeat(24)],
    })),
  },
  {
    id: 'stripe-webhook-secret',
    title: 'Stripe webhook signing secret (whsec_…)',
    severity: 'high',
    keywords: ['whsec_'],
    pattern: /(?<![A-Za-z0-9_])(whsec_[A-Za-z0-9+/]{32,64})(?![A-Za-z0-9+/])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [fakeToken('whsec_', 32)],
      ignore: ['whsec_' + 'x'.repeat(32), 'whsec_...'],
    })),
  },
]);
