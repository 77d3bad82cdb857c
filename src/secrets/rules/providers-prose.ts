import { defineRules, type MatchContext } from '../rule.js';
import { missesByLittle, OTHER_CREDENTIAL_NAME, shapeClass, type ValueShape } from '../rule-builders.js';
import { LOWER_ALPHANUMERIC, randomString } from '../sample-tokens.js';
import { NAMED_PROVIDER_SHAPES } from './named-providers.js';

/**
 * A provider's key named in words rather than in a variable name: a log line (`Using adzuna key=…`), notes
 * (`webex token - '…'`), a settings list (`aylien key: …`). The provider word comes one to three words before `key`
 * or `token`; the value must be in that provider's format (the provider-named table's shapes), and a value one or two
 * characters off it is a stand-in that no generic rule reports either.
 */

const PROSE_KEY = new RegExp(
  '(?<![A-Za-z0-9_])(?<name>[A-Za-z][A-Za-z0-9]{2,30}(?:[ \\t]+[A-Za-z][A-Za-z0-9]{1,30}){0,2}?[ \\t]+(?:key|token))' +
    // `token - '…'` (a list of notes) only with a quoted value: `token - offset` is arithmetic.
    `["']?[ \\t]*(?:=|:|-(?=[ \\t]*['"]))[ \\t]*(?:['"][ \\t]?)?(?<secret>[^\\s"'\`,;<>(){}\\[\\]\\\\&]{4,200})`,
  'i',
);

/** The shape of the first word of the name that is a provider alias (`adzuna` in `Using adzuna key`). */
function shapeOf(context: MatchContext): ValueShape | undefined {
  const words = (context.name ?? '').toLowerCase().split(/[ \t]+/);
  for (const word of words.slice(0, -1)) {
    const entry = NAMED_PROVIDER_SHAPES.get(word);
    if (entry) return entry.shape;
  }
  return undefined;
}

function fits(secret: string, shape: ValueShape): boolean {
  if (!new RegExp(`^${shapeClass(shape)}{${shape.min},${shape.max}}$`, 'i').test(secret)) return false;
  if (shape.charset === 'hex' && /[a-f]/.test(secret) && /[A-F]/.test(secret)) return false;
  return /[0-9]/.test(secret) && /[a-z]/i.test(secret);
}

const sample = randomString(40, LOWER_ALPHANUMERIC, 'prose-abyssale');

export default defineRules([
  {
    id: 'providers-prose-named-key',
    title: "API key or token named by its provider in words (Using adzuna key=…, webex token - '…')",
    severity: 'high',
    keywords: ['key', 'token'],
    gate: /["']?[ \t]*(?:=|:|-[ \t]*['"])/,
    pattern: PROSE_KEY,
    entropy: 3,
    validate: (secret, context) => {
      const shape = shapeOf(context);
      return shape !== undefined && fits(secret, shape);
    },
    claimsRejected: (secret, context) => {
      const shape = shapeOf(context);
      return shape !== undefined && missesByLittle(secret, shape) && !OTHER_CREDENTIAL_NAME.test(context.name ?? '');
    },
    samples: {
      key: 'abyssale key',
      match: [sample],
      // One character too many: no Abyssale key, and no bare-key finding either.
      ignore: [`${sample}7`, 'your-abyssale-key', `\${ABYSSALE_KEY}`],
      contexts: [
        {
          name: 'log line',
          path: 'logs/client.log',
          render: (v) => `[INFO] calling the API\n[DEBUG] Using abyssale Key=${v}\n`,
        },
        { name: 'notes', path: 'notes/accounts.txt', render: (v) => `abyssale token - '${v}'\n` },
        { name: 'YAML list', path: 'config/providers.yaml', render: (v) => `keys:\n  abyssale api key: ${v}\n` },
      ],
    },
  },
]);
