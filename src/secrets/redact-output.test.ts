import { afterEach, describe, expect, test } from 'vitest';
import { createRedactor } from '../integrations/alerts/mask.js';
import { resetKnownValues } from './known-values.js';
import { ownWords } from './own-words.js';
import { redactSecrets } from './redact.js';
import { fakeChecksumToken, fakeToken } from './sample-tokens.js';

/** Output as people see it: a token cut by a colour code or a carriage return, a webhook without its scheme. */
afterEach(() => resetKnownValues());

const token = fakeChecksumToken('ghp_', 'redact-output');

describe('masking output as a terminal shows it', () => {
  test('a token split by an ANSI colour code keeps neither half, and the colour codes stay', () => {
    const text = `x ${token.slice(0, 12)}\u001b[31m${token.slice(12)}\u001b[0m y`;
    const masked = redactSecrets(text);
    expect(masked).not.toContain(token.slice(4, 12));
    expect(masked).not.toContain(token.slice(12));
    expect(masked).toContain('\u001b[31m');
    expect(masked.startsWith('x ghp_')).toBe(true);
    expect(masked.endsWith('\u001b[0m y')).toBe(true);
  });

  test('a token split by a carriage return keeps neither half; text around it is untouched', () => {
    const masked = redactSecrets(`progress\r\nx ${token.slice(0, 10)}\r${token.slice(10)} y\r\n`);
    expect(masked).not.toContain(token.slice(10));
    expect(masked).not.toContain(token.slice(4, 10));
    expect(masked.startsWith('progress\r\nx ')).toBe(true);
    expect(masked.endsWith(' y\r\n')).toBe(true);
  });

  test('a Slack webhook without https:// is masked', () => {
    const path = `T${fakeToken('', 9, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')}/B${fakeToken('', 9, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')}/${fakeToken('', 24)}`;
    const secretPart = path.split('/')[2]!;
    expect(redactSecrets(`posting to hooks.slack.com/services/${path} now`)).not.toContain(secretPart);
    expect(redactSecrets(`posting to https://hooks.slack.com/services/${path} now`)).not.toContain(secretPart);
  });

  test('a short credential (GITHUB_TOKEN=t) masks nothing of the output; a real one is hidden', () => {
    const prose = 'GitHub API alerts are listed, tokens too';
    expect(createRedactor({ credentials: ['t'] })(prose)).toBe(prose);
    expect(createRedactor({ credentials: ['tokens'] })(prose)).toBe(prose);
    expect(createRedactor({ credentials: ['alerts-token'] })('x alerts-token y')).toBe('x *** y');
  });
});

describe("tollgate's own words beside the user's values", () => {
  const phrase = ownWords('this is not a pass: rerun when the source answers');

  test('a marked phrase is left as written, and its words are not remembered as secrets', () => {
    expect(redactSecrets(`osv: timed out; ${phrase}`)).toBe(`osv: timed out; ${phrase}`);
    expect(redactSecrets('pass: rerun')).toBe('pass: r…');
    expect(redactSecrets('a later line says rerunning')).toBe('a later line says rerunning');
  });

  test("a user's secret next to the phrase, or in place of its words, is still masked", () => {
    const userLine = `${phrase}; db pass: ${token}`;
    expect(redactSecrets(userLine)).not.toContain(token.slice(4));
    expect(redactSecrets(`this is not a pass: ${token} when the source answers`)).not.toContain(token.slice(4));
  });
});
