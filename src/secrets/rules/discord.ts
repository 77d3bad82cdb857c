import { checkedGate, isBase64Url } from '../gate-checks.js';
import { hitContext } from '../hit-context.js';
import { defineRules } from '../rule.js';
import { base64Of, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

/**
 * After the bare token's first dot (its keyword, found at every `.` of every text): 6 base64url characters, a dot and
 * the HMAC; before it, the first part, a whole run of 24 to 28 base64url characters that starts with M, N or O (the
 * base64 of a user id's first digit). The check in code reads the dot six characters on and that run before any
 * regex runs: a property path (`a.b.c`) or a sentence fails it at once. The keyword pass itself records a dot only
 * where the least of that holds (its context: 24 base64url characters, the dot, 6 more, a dot and 27 more), so most of
 * the dots of a text cost no more than any other character.
 */
const B64 = 'A-Za-z0-9_-';
const DOTTED_TOKEN_GATE = checkedGate(
  /[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_.-])/,
  (text, after) => {
    if (text.charCodeAt(after + 6) !== 46) return false;
    const dot = after - 1;
    let start = dot;
    while (start > dot - 29 && isBase64Url(text.charCodeAt(start - 1))) start--;
    const length = dot - start;
    if (length < 24 || length > 28) return false;
    const first = text.charCodeAt(start);
    if (first < 77 || first > 79) return false; // M, N or O
    const before = text.charCodeAt(start - 1);
    return !(isBase64Url(before) || before === 46);
  },
  hitContext(Array(24).fill(B64), [...Array(6).fill(B64), '.', ...Array(27).fill(B64)]),
);

export default defineRules([
  {
    id: 'discord-bot-token',
    title: 'Discord bot token',
    severity: 'critical',
    keywords: ['discord'],
    pattern:
      /discord[A-Za-z0-9_.-]{0,30}["']?[ \t]{0,4}(?:=|:|=>)[ \t]{0,4}["']?([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?![A-Za-z0-9_-])/i,
    entropy: 4,
    samples: lazySamples(() => ({
      key: 'DISCORD_BOT_TOKEN',
      match: [
        `${base64Of('1184420397162561536').replace(/=+$/, '')}.${fakeToken('', 6, URL_SAFE)}.${fakeToken('', 38, URL_SAFE)}`,
      ],
      ignore: [`\${DISCORD_BOT_TOKEN}`],
    })),
  },
  {
    // Without a name: the first part must decode to a Discord snowflake (the bot's 17–20 digit user id).
    id: 'discord-bot-token-bare',
    title: 'Discord bot token (base64 user id . timestamp . HMAC)',
    severity: 'critical',
    keywords: ['.'],
    gate: DOTTED_TOKEN_GATE,
    pattern: /(?<![A-Za-z0-9_.-])([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?![A-Za-z0-9_.-])/,
    validate: (token) => /^\d{17,20}$/.test(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('latin1')),
    entropy: 4,
    samples: lazySamples(() => ({
      match: [
        `${base64Of('1184420397162561536').replace(/=+$/, '')}.${fakeToken('', 6, URL_SAFE)}.${fakeToken('', 38, URL_SAFE)}`,
      ],
      ignore: [
        `${base64Of('not-a-snowflake-id!').replace(/=+$/, '')}.${fakeToken('', 6, URL_SAFE)}.${fakeToken('', 38, URL_SAFE)}`,
      ],
    })),
  },
  {
    id: 'discord-webhook-url',
    title: 'Discord webhook URL (discord.com/api/webhooks/…)',
    severity: 'high',
    keywords: ['discord.com/api/webhooks', 'discordapp.com/api/webhooks'],
    pattern: /(https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/[A-Za-z0-9_-]{60,70})/,
    samples: lazySamples(() => ({
      match: [`https://discord.com/api/webhooks/${fakeToken('', 19, '0123456789')}/${fakeToken('', 68, URL_SAFE)}`],
      ignore: ['https://discord.com/api/webhooks/123/abc'],
    })),
  },
]);
