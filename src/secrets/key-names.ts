/**
 * Names that end in `Key` or `auth` (`stripeKey`, `CLIENT_KEY`, `proxy_auth`, npm's `_auth`): a credential when the
 * word before says whose key it is, a key of something else when it says what is keyed (`primaryKey`, `cacheKey`,
 * `ctrlKey`). The generic `*-key-name` rules read such names; these tables say which ones hold no credential.
 */

/** A group of words that say a name holds no credential, and where they are documented as such. */
export interface NonCredentialWords {
  readonly words: string;
  readonly reference: string;
  /**
   * Only as the word right before `Key` (`envKey`, `configKey`): anywhere else such a word is the path to the setting
   * (`process.env.CLIENT_KEY`, `config.stripe_key`), not what it keys.
   */
  readonly lastOnly?: true;
}

/** Words before `Key` that name a key of data, a keyboard or an interface, never a credential; each group says where. */
export const NON_CREDENTIAL_KEY_WORDS: readonly NonCredentialWords[] = [
  {
    words: 'primary foreign unique composite candidate surrogate natural compound super alternate',
    reference: 'https://en.wikipedia.org/wiki/Primary_key',
  },
  {
    words: 'partition sort hash range shard distribution dist cluster clustering row column',
    reference: 'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.CoreComponents.html',
  },
  {
    words: 'cache storage local session store memo query mutation swr lookup map dict index idempotency dedupe dedup',
    reference: 'https://tanstack.com/query/latest/docs/framework/react/guides/query-keys',
  },
  {
    words:
      'i18n l10n translation trans locale lang label message msg text title description desc placeholder tooltip hint',
    reference: 'https://www.i18next.com/translation-function/essentials',
  },
  {
    words:
      'ctrl control shift alt meta option cmd command esc escape enter return tab space arrow modifier hot short shortcut press pressed down up keyboard',
    reference: 'https://developer.mozilla.org/docs/Web/API/KeyboardEvent',
  },
  {
    words:
      'react list item child children node parent row element component prop props attr state route page section group field column record entity model table object obj bucket s3 file path prefix suffix sort order filter search group event data value name id type kind style theme color icon image injection provide context symbol',
    reference: 'https://react.dev/learn/rendering-lists#keeping-list-items-in-order-with-key',
  },
  {
    words: 'public publishable site recaptcha verification verify',
    reference: 'https://developers.google.com/recaptcha/docs/display',
  },
  {
    words: 'env config setting settings option options param parameter header cookie form field json yaml toml',
    reference: 'https://docs.python.org/3/library/configparser.html',
    lastOnly: true,
  },
  {
    words: 'dummy fake test mock sample example invalid wrong bad',
    reference: 'https://cwe.mitre.org/data/definitions/798.html',
  },
];

/** Words before `auth` that say whether or how to authenticate, not with what (`no_auth`, `requireAuth`). */
export const NON_CREDENTIAL_AUTH_WORDS: readonly NonCredentialWords[] = [
  {
    words:
      'no use uses using require requires required need needs skip with without has have is enable enabled disable disabled allow default supports support',
    reference: 'https://docs.npmjs.com/cli/configuring-npm/npmrc#auth-related-configuration',
  },
  {
    words: 'o oauth2 saml sso ldap kerberos digest ntlm type method mode scheme strategy provider',
    reference: 'https://developer.mozilla.org/docs/Web/HTTP/Authentication#authentication_schemes',
  },
];

const wordSet = (table: readonly NonCredentialWords[], lastOnly: boolean) =>
  new Set(table.filter((entry) => lastOnly || !entry.lastOnly).flatMap((entry) => entry.words.split(' ')));
const KEY_WORDS = wordSet(NON_CREDENTIAL_KEY_WORDS, false);
const LAST_KEY_WORDS = wordSet(NON_CREDENTIAL_KEY_WORDS, true);
const AUTH_WORDS = wordSet(NON_CREDENTIAL_AUTH_WORDS, true);

/** The words of a name: `stripe_webhookKey2` → `stripe`, `webhook`, `key2`. */
function wordsOf(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * Whether a name ending in `Key` or `auth` names a credential: a word must say whose (a bare `key` or `data_key`
 * does not), and no word may say it keys data, a keyboard or an interface, or says whether to authenticate.
 */
export function isCredentialKeyName(name: string): boolean {
  const words = wordsOf(name);
  const last = words.at(-1)?.replace(/\d+$/, '');
  const owner = words.slice(0, -1);
  if (owner.length === 0) return last === 'auth';
  const before = owner.at(-1)!;
  const lastWords = last === 'auth' ? AUTH_WORDS : LAST_KEY_WORDS;
  if (lastWords.has(before) || lastWords.has(before.replace(/s$/, ''))) return false;
  return !owner.some((word) => KEY_WORDS.has(word) || KEY_WORDS.has(word.replace(/s$/, '')));
}
