import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { gateCheckOf } from './gate-checks.js';
import { GATES } from './generic-gates.js';
import { nameGateShape } from './name-gate.js';
import { builtinRules } from './rules/index.js';
import { base64Of, fakeToken, URL_SAFE } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

const discordRule = builtinRules.find((rule) => rule.id === 'discord-bot-token-bare')!;
const ruleOf = (id: string) => builtinRules.find((rule) => rule.id === id)!;

/**
 * Proves a rule's gate check is implied by its gate regex: at every offset of random text made of `pieces`, where the
 * sticky gate matches, the check passes (so the check only saves regex runs, and opens exactly the windows it did);
 * with `prefix`, at the end of that prefix (a keyword hit) before the random text.
 */
function checkNeverTurnsDownGate(id: string, pieces: readonly string[], prefix?: string): void {
  const { gate } = ruleOf(id);
  const check = gateCheckOf(gate)!;
  expect(check).toBeDefined();
  const sticky = new RegExp(gate!.source, `${gate!.flags.replace('g', '')}y`);
  let matched = 0;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
      const text = `${prefix ?? ''}${parts.join('')}`;
      // With a prefix, at its end only (a check that also reads before the hit is asked where the prefix holds).
      for (let after = prefix?.length ?? 0; after <= (prefix === undefined ? text.length : prefix.length); after++) {
        sticky.lastIndex = after;
        if (!sticky.test(text)) continue;
        matched++;
        expect(check(text, after)).toBe(true);
      }
    }),
    { numRuns: 3000 },
  );
  // The pieces must make text the gate matches, or the property proves nothing.
  expect(matched).toBeGreaterThan(50);
}

describe('gates with a check in code', () => {
  test('the XML attribute check never turns down text its gate regex matches', () => {
    const check = gateCheckOf(GATES.xmlAttribute)!;
    const gate = new RegExp(GATES.xmlAttribute.source, `${GATES.xmlAttribute.flags}y`);
    const pieces = ['a', '_', '"', ' ', '\t', 'value', '=', '>', '<', '\n', ':', 'x'.repeat(39), 'y'.repeat(79)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }), (parts) => {
        const text = `name="api_key${parts.join('')}`;
        const after = text.indexOf('api_key') + 'api_key'.length;
        gate.lastIndex = after;
        if (gate.test(text)) expect(check(text, after)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  test('the XML attribute check gives the same verdicts asked in order along one text as asked afresh', () => {
    const check = gateCheckOf(GATES.xmlAttribute)!;
    const pieces = ['a', '"', ' ', '>', '<', '\n', ':', ', ', 'api_key', 'x'.repeat(39), 'y'.repeat(90)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const afresh = [...text].map((_, after) => {
          check('<reset>', 0);
          return check(text, after);
        });
        expect([...text].map((_, after) => check(text, after))).toEqual(afresh);
      }),
      { numRuns: 2000 },
    );
  });

  test('a JSON key opens no XML attribute window; an Android string or web.config setting does', () => {
    const check = gateCheckOf(GATES.xmlAttribute)!;
    const at = (text: string) => check(text, text.indexOf('api_key') + 'api_key'.length);
    expect(at('  "api_key_1": "value 1",\n  "x": "<b>"\n')).toBe(false);
    expect(at('<string name="api_key">abc</string>')).toBe(true);
    expect(at('<add key="api_key" value="abc" />')).toBe(true);
    expect(at(`{${'"api_key_1": "value 1", '.repeat(200)}"x": "<b>"}`)).toBe(false);
    expect(at(`<entry key="api_key"${' '.repeat(0)}type="x">`)).toBe(true);
  });

  test('the bare Discord token: found wherever it stands alone, its gate stops every other dot', () => {
    const token = `${base64Of('1184420397162561536').replace(/=+$/, '')}.${fakeToken('', 6, URL_SAFE)}.${fakeToken('', 38, URL_SAFE)}`;
    const scanner = new SecretScanner([discordRule]);
    const check = gateCheckOf(discordRule.gate)!;
    const around = ['', ' ', '\n', '"', "'", '(', '=', 'a', '.', '-', 'x.y', 'M'.repeat(30)];
    fc.assert(
      fc.property(fc.constantFrom(...around), fc.constantFrom(...around), (before, after) => {
        const text = `${before}${token}${after}`;
        const expected = discordRule.pattern.test(text) ? [token] : [];
        expect(scanner.scanText(text, { path: 'notes.txt' }).map((item) => item.secret)).toEqual(expected);
      }),
    );
    const dots = (text: string) => [...text.matchAll(/\./g)].filter((dot) => check(text, dot.index + 1)).length;
    expect(dots(`this.config.value = a.b.c; ${'M'.repeat(24)}.abcdef.x`)).toBe(1);
    expect(dots('See https://example.com/a.b. Then call foo.bar() and baz.qux.')).toBe(0);
  });

  test('the spaced provider key: its check (a blank after the name) never turns down a hit its gate takes', () => {
    checkNeverTurnsDownGate('providers-prose-spaced-key', [
      's',
      'S',
      '"',
      "'",
      ' ',
      '\t',
      '  ',
      '_',
      ':',
      '=',
      '(',
      'a',
      'Ab3',
      'x'.repeat(19),
      'Q9'.repeat(10),
      ',',
      '\n',
    ]);
  });

  test('the Facebook Graph token: its check (90 letters or digits) never turns down a hit its gate takes', () => {
    checkNeverTurnsDownGate('facebook-graph-access-token', [
      'a',
      'Z',
      '7',
      '_',
      '+',
      ' ',
      'Ab3'.repeat(10),
      'x'.repeat(45),
      '\n',
    ]);
  });

  test('the named Azure account key: its check (`key` within the name) never turns down a hit its gate takes', () => {
    checkNeverTurnsDownGate('azure-storage-account-key-named', [
      'key',
      'KEY',
      'Key',
      '_',
      '.',
      '-',
      'a',
      'x'.repeat(10),
      'y'.repeat(25),
      '=',
      ' ',
      '"',
      ': ',
      `${'A1+/'.repeat(21)}Ab==`,
      '==',
      '\n',
    ]);
  });

  test('the provider key named in words: its check (a separator after the name) never turns down a hit its gate takes', () => {
    checkNeverTurnsDownGate(
      'providers-prose-named-key',
      ['"', "'", ' ', '\t', '=', ':', '-', ' - ', 'a', '_', '(', '\n'],
      'Using acme key',
    );
  });

  test('the key named for whose it is: its check turns down only matches the rule rejects, and so does its quoted verdict', () => {
    const rule = ruleOf('generic-secret-key-name');
    const check = gateCheckOf(rule.gate)!;
    const quoted = nameGateShape(rule.gate)!.quoted!;
    const search = new RegExp(rule.pattern.source, `${rule.pattern.flags}g`);
    const pieces = [
      'stripeKey',
      'CLIENT_KEY',
      'proxy_auth',
      'Auth',
      'keys',
      'monkey',
      '7',
      '12',
      '_',
      '.',
      ' ',
      '=',
      ': ',
      '"',
      "'",
      ',',
      '\n',
      'Ab3'.repeat(6),
      'MaxResults',
      'x9',
      fakeToken('', 20),
      fakeToken('', 40),
      // What typings and API models put after such names (`= string;`, `?: KmsKey;`, `": {`), and other forms.
      ' = string;',
      '?: KmsKey;',
      ': {',
      '": [',
      '!',
      '?',
      '[',
      ']',
      '=>',
      ':=',
      '\\"',
      '&quot;',
      '\t',
      '         ',
      'T',
      '-',
      'é',
    ];
    let matches = 0;
    let turnedDown = 0;
    let passed = 0;
    // Random pieces, and assignments made of a name, a separator and a value in random quotes, with pieces around.
    const assignment = fc
      .tuple(
        fc.constantFrom('stripeKey', 'CLIENT_KEY', 'proxy_auth', 'x.fooKey12', 'Auth'),
        fc.constantFrom('=', ': ', ' = ', '": ', "'='", '?=', ': T = ', ':T=', ' => ', ':=', '= ', '!= '),
        fc.constantFrom('"', "'", ''),
        fc.constantFrom(
          fakeToken('', 20),
          fakeToken('', 40),
          'MaxResults',
          'abc123def456ghi7',
          'abc123def456ghi',
          '{0}',
          'string',
          `${fakeToken('', 12)}=${fakeToken('', 12)}`,
        ),
      )
      .map(([name, separator, quote, value]) => `${name}${separator}${quote}${value}${quote}`);
    const piece = fc.oneof(fc.constantFrom(...pieces), assignment);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        for (const match of text.matchAll(search)) {
          matches++;
          const name = match.groups!.name!;
          const [group, secret] = Object.entries(match.groups!).find(([key, v]) => key.startsWith('secret') && v)!;
          const accepted = ['code', 'config'].some((syntax) =>
            rule.validate!(secret!, { name, group, syntax: syntax as 'code', host: undefined }),
          );
          if (!check(text, match.index + name.replace(/[0-9]{1,2}$/, '').length)) {
            turnedDown++;
            expect(accepted).toBe(false);
          } else if (group === 'secretBare' && accepted) passed++;
          const value = match.groups!.secretQuoted ?? match.groups!.secretSingle;
          if (value === undefined || !quoted(value)) continue;
          expect(rule.validate!(value, { name, group: 'secretQuoted', syntax: 'code', host: undefined })).toBe(false);
        }
      }),
      { numRuns: 3000 },
    );
    expect(matches).toBeGreaterThan(100);
    // The check must turn some matches down, and let unquoted values the rule reports through, or this proves nothing.
    expect(turnedDown).toBeGreaterThan(50);
    expect(passed).toBeGreaterThan(10);
  });

  test('the Vault legacy token under a token name: its check (`s.`, `b.` or `r.` ahead) never turns down a hit its gate takes', () => {
    checkNeverTurnsDownGate(
      'hashicorp-vault-legacy-token-named',
      ['Name', '_', '.', '-', 'x'.repeat(15), '"', "'", '`', ' ', '\t', '    ', '=', ':', ':=', '=>', ',', 's.', 'B.'],
      'token',
    );
    checkNeverTurnsDownGate(
      'hashicorp-vault-legacy-token-named',
      ['_', '"', "'", '`', ' ', '\t', '    ', '=', ':', ':=', '=>', ',', 's.', 'b.', 'R.', 's', '.', '\n', 'é', 'ab'],
      'VAULT_TOKEN',
    );
  });
});

describe('the logged provider key', () => {
  test('its check (the rest of the `request to` line) holds at every match and turns down longer lines', () => {
    const rule = ruleOf('providers-prose-logged-key');
    const check = gateCheckOf(rule.gate)!;
    const search = new RegExp(rule.pattern.source, `${rule.pattern.flags}g`);
    const pieces = [
      'request to',
      'Request To',
      ' ',
      '\t',
      '   ',
      'the ',
      'apiflash',
      'aha.io',
      'Q',
      ' api',
      ' API',
      ' and',
      '\n',
      '\r\n',
      '\r',
      'Using Key=',
      '[DEBUG] using api_token = ',
      'abcd1234',
      'x'.repeat(45),
      ',',
      '$',
      '.',
      'é',
    ];
    // Log lines made of the pattern's parts, some of them changed into what it does not take, among random pieces.
    const logged = fc
      .tuple(
        fc.constantFrom(' ', '\t', '   ', ''),
        fc.constantFrom('the ', 'THE\t', ''),
        fc.constantFrom('apiflash', 'aha.io', 'Q', `${'w'.repeat(41)}.abcdef`, 'x'.repeat(45), 'a$b', 'the'),
        fc.constantFrom(' api', ' API', '', ' and more', '.'),
        fc.constantFrom('', ' ', '\t '),
        fc.constantFrom('\n', '\r\n', '\r', ''),
        fc.constantFrom('Using Key=', '[DEBUG] using api_token = ', '  using token='),
        fc.constantFrom('abcd1234', 'x'.repeat(45), ','),
      )
      .map((parts) => `request to${parts.join('')}`);
    let matches = 0;
    let turnedDown = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), logged), { maxLength: 10 }), (parts) => {
        const text = parts.join('');
        const starts = new Set<number>();
        for (const match of text.matchAll(search)) {
          // The keyword pass finds `request to` with one space; a match with more blanks there has no hit at all.
          if (!/^request to/i.test(match[0])) continue;
          matches++;
          starts.add(match.index);
          expect(check(text, match.index + 'request to'.length)).toBe(true);
        }
        for (const hit of text.matchAll(/request to/gi))
          if (!starts.has(hit.index) && !check(text, hit.index + 'request to'.length)) turnedDown++;
      }),
      { numRuns: 4000 },
    );
    expect(matches).toBeGreaterThan(30);
    expect(turnedDown).toBeGreaterThan(1000);
  });
});
