import { defineRules } from '../rule.js';
import { TOKEN_START } from '../rule-builders.js';
import { fakeToken, LOWER_ALPHANUMERIC, lazySamples } from '../sample-tokens.js';

const part = () => fakeToken('', 16, LOWER_ALPHANUMERIC);

export default defineRules([
  // EdgeGrid's client_token and access_token (`.edgerc`): half of what signs an Akamai API request. The API host
  // has the same shape (`akab-….luna.akamaiapis.net`) and is no secret.
  {
    id: 'akamai-edgegrid-token',
    title: 'Akamai EdgeGrid client or access token (akab-…)',
    severity: 'high',
    keywords: ['akab-'],
    pattern: new RegExp(`${TOKEN_START}(akab-[a-z0-9]{16}-[a-z0-9]{16})(?![A-Za-z0-9_-])(?!\\.[A-Za-z])`),
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`akab-${part()}-${part()}`],
      ignore: [`akab-${part()}-${part()}.luna.akamaiapis.net`, `akab-\${EDGEGRID_CLIENT_TOKEN}`],
    })),
  },
]);
