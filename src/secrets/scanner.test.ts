import { describe, expect, test } from 'vitest';
import { cpuMs } from '../../test/support/cpu-time.js';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken, fakeHumanPassword, fakeToken, wrongChecksumToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

const scanner = new SecretScanner(builtinRules);

/** A minified JSON config of about `size` characters on one line, with `extra` spliced in at `at` (0..1). */
function minifiedJson(size: number, extra: string, at: number): string {
  const entries: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const entry = `"feature_${i}":{"enabled":${i % 2 === 0},"rollout":${i % 100},"owner":"team-${i % 7}"}`;
    entries.push(entry);
    length += entry.length + 1;
  }
  entries.splice(Math.floor(entries.length * at), 0, extra);
  return `{${entries.join(',')}}`;
}

describe('long lines', () => {
  const password = fakeHumanPassword('long-line-password');

  test.each([0, 0.5, 1])('finds the one password in a 200 KB single-line JSON (placed at %d)', (at) => {
    const text = minifiedJson(200_000, `"database":{"host":"db.internal","password":"${password}"}`, at);
    expect(text.length).toBeGreaterThan(200_000);
    expect(text.includes('\n')).toBe(false);
    const found = scanner.scanText(text, { path: 'config/flags.json' });
    expect(found.map((item) => [item.rule.id, item.secret, item.line])).toEqual([['generic-password', password, 1]]);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe(password);
  });

  test('finds every password on a long line, also ones next to each other', () => {
    const pairs = Array.from({ length: 40 }, (_, i) => `"svc${i}_password":"${fakeHumanPassword(`pair-${i}`)}"`);
    const text = `{${pairs.join(',')},"padding":"${'ab1.'.repeat(400)}"}`;
    const found = scanner.scanText(text, { path: 'secrets.json' });
    expect(found.map((item) => item.secret)).toEqual(pairs.map((pair) => pair.split('":"')[1]!.slice(0, -1)));
  });

  test('a value cut by a window edge is not reported truncated', () => {
    const token = fakeToken('', 180, undefined, 'long-line-cut');
    const filler = `"x":"${'q1w2'.repeat(60)}",`;
    // Keyword hits ~700 characters apart, the last one's value crossing the first window's end.
    const text = `{${filler.repeat(3)}"a_token":"t1a2",${'"k":1,'.repeat(115)}"api_secret":${token},${filler.repeat(3)}}`;
    const found = scanner.scanText(text, { path: 'app.json' }).filter((item) => item.rule.generic);
    expect(found.map((item) => item.secret)).toContain(token);
    for (const item of found) expect(item.secret === token || !token.startsWith(item.secret)).toBe(true);
  });

  test('minified code lines stay exempt from generic rules', () => {
    const line = `!function(e){var token="${fakeToken('', 32, undefined, 'bundle')}";}${'e.exports=n;'.repeat(120)}`;
    expect(scanner.scanText(line, { path: 'web/vendor/app.min.js' })).toEqual([]);
  });

  test.each([
    ['"password":"', 'repeated keys'],
    ['password=password=', 'keyword chains'],
    ['"api_token":"a","', 'short values'],
    ['pass', 'bare keyword'],
  ])('a 2 MB line of %j (%s) scans in linear time', (unit) => {
    // CPU time, not wall time: waiting for a core on a busy machine is not the scanner's cost.
    const time = (size: number) => {
      const text = unit.repeat(Math.ceil(size / unit.length));
      return cpuMs(() => scanner.scanText(text, { path: 'big.json' }));
    };
    time(50_000); // warm up the regexes
    const small = time(250_000);
    const limit = Math.max(small * 24, 150);
    // A garbage collection can still slow one timing: the faster of two is what the scan costs. Quadratic is always slow.
    let large = time(2_000_000);
    if (large >= limit) large = Math.min(large, time(2_000_000));
    expect(large, `${small.toFixed(1)} ms → ${large.toFixed(1)} ms`).toBeLessThan(limit);
    // Far above what this takes, far below what super-linear scanning of 2 MB needs.
    expect(large).toBeLessThan(10_000);
  });
});

describe('a scanner reused text after text', () => {
  // The per-rule progress and the per-path facts are kept between scans: no scan may see another's.
  const password = fakeHumanPassword('reused-scanner');
  const token = fakeToken('', 40, undefined, 'reused-scanner');
  const texts: ReadonlyArray<[path: string, text: string]> = [
    ['deploy/app.env', `${'# filler line\n'.repeat(200)}DB_PASSWORD=${password}\nAPI_TOKEN=${token}\n`],
    ['deploy/app.env', `DB_PASSWORD=${password}\n`],
    ['.netrc', `machine api.acme.internal\n  login deploy\n  password ${password}\n`],
    ['docs/.netrc.md', `machine api.acme.internal\n  password ${password}\n`],
    ['.netrc', `machine api.acme.internal\n  password ${password}\n`],
    ['bin/tool', `#!/usr/bin/env python3\npassword = "${password}"\n`],
    ['bin/tool', `#!/bin/sh\nPASSWORD=${password}\n`],
    ['config.json', `{"api_token":"${token}"}`],
  ];
  const fresh = (path: string, text: string) => new SecretScanner(builtinRules).scanText(text, { path });

  test('finds in each text what a fresh scanner finds', () => {
    const reused = new SecretScanner(builtinRules);
    for (const round of [1, 2]) {
      for (const [path, text] of texts) {
        expect(reused.scanText(text, { path }), `${path}, round ${round}`).toEqual(fresh(path, text));
      }
    }
  });

  test('streams open at once keep their own progress', () => {
    const reused = new SecretScanner(builtinRules);
    const streams = texts.map(([path, text]) => ({ path, text, stream: reused.startStream({ path })! }));
    for (const { text, stream } of streams) stream.push(text.slice(0, 20));
    reused.scanText(texts[0]![1], { path: texts[0]![0] });
    for (const { text, stream } of streams) stream.push(text.slice(20));
    for (const { path, text, stream } of streams) expect(stream.end(), path).toEqual(fresh(path, text));
  });
});

describe('rejected candidates (kept only when asked: `--report-allowed`)', () => {
  const bad = wrongChecksumToken('ghp_', 'scanner-rejected');
  const good = fakeChecksumToken('ghp_', 'scanner-rejected-good');
  const filler = 'LOG_LEVEL=debug\n'.repeat(20_000);
  const text = `${filler}GITHUB_TOKEN=${bad}\nMIRROR=https://ci:${fakeHumanPassword('rejected')}@docs.example.com/x\n${filler}`;
  const summary = (found: ReturnType<SecretScanner['scanText']>) =>
    found.map(({ rule, line, column, start, end, rejected }) => ({
      rule: rule.id,
      line,
      column,
      start,
      end,
      rejected,
    }));

  test('are not returned unless asked; when asked, each is placed with its reason, whole or streamed alike', () => {
    const scanner = new SecretScanner(builtinRules);
    expect(scanner.scanText(text, { path: 'app.env' })).toEqual([]);
    const whole = summary(scanner.scanText(text, { path: 'app.env', keepRejected: true }));
    expect(whole).toMatchObject([
      { rule: 'github-pat', line: 20_001, column: 14, rejected: expect.stringContaining('fails the format check') },
      { rule: 'basic-auth-url', line: 20_002, rejected: expect.stringContaining('documentation host') },
    ]);
    const stream = scanner.startStream({ path: 'app.env', keepRejected: true })!;
    for (let at = 0; at < text.length; at += 7_919) stream.push(text.slice(at, at + 7_919));
    expect(summary(stream.end())).toEqual(whole);
  });

  test('a value a rule accepts is a finding only', () => {
    const found = new SecretScanner(builtinRules).scanText(`GITHUB_TOKEN=${good}\n`, {
      path: 'app.env',
      keepRejected: true,
    });
    expect(found.map((item) => [item.rule.id, item.rejected])).toEqual([['github-pat', undefined]]);
  });
});
