import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cpuMs } from '../../../test/support/cpu-time.js';
import { REVIEW_SEVERITIES } from './answer.js';
import { parseReviewAnswer, repairJson } from './parse-answer.js';

const finding = fc.record({
  path: fc.stringMatching(/^[a-z][a-z0-9_/.-]{0,30}$/),
  line: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
  severity: fc.constantFrom(...REVIEW_SEVERITIES),
  title: fc.string({ minLength: 1, maxLength: 60 }).filter((title) => title.trim() !== ''),
  body: fc.string({ maxLength: 200 }),
});
const answer = fc.record({ status: fc.constantFrom('pass', 'fail'), findings: fc.array(finding, { maxLength: 5 }) });
/** Prose a model wraps its answer in; braces and quotes included, since models write code in prose. */
const prose = fc.string({ maxLength: 120 }).map((text) => text.replace(/`/g, "'"));

function expected(
  value: fc.Arbitrary<unknown> extends never ? never : { status: string; findings: Array<Record<string, unknown>> },
) {
  return {
    status: value.status,
    findings: value.findings.map((item) => ({
      path: String(item.path).trim(),
      ...(item.line === null ? {} : { line: item.line }),
      severity: item.severity,
      title: String(item.title).trim(),
      body: item.body,
    })),
  };
}

describe('parseReviewAnswer', () => {
  test.each([
    ['the bare object', '{"status":"pass","findings":[]}'],
    ['a json fence', 'Here you go:\n```json\n{"status":"pass","findings":[]}\n```\nThanks'],
    ['a bare fence', '```\n{"status": "pass", "findings": []}\n```'],
    ['prose with a stray brace before it', 'I checked the `{` handling.\n{"status":"pass","findings":[]}'],
    [
      'the example repeated before the answer',
      '{"status":"fail","findings":[{"path":"x","line":1,"severity":"high","title":"example"}]}\nActual: {"status":"pass","findings":[]}',
    ],
    ['a trailing comma', '{"status":"pass","findings":[],}'],
  ])('reads %s as a pass with no findings', (_name, text) => {
    expect(parseReviewAnswer(text)).toEqual({ ok: true, answer: { status: 'pass', findings: [] } });
  });

  test('keeps an invalid escape as a literal backslash', () => {
    const text =
      '{"status":"fail","findings":[{"path":"a.ts","line":3,"severity":"HIGH","title":"Regex \\d+ is unanchored"}]}';
    const parsed = parseReviewAnswer(text);
    expect(parsed.ok && parsed.answer.findings[0]).toMatchObject({
      title: 'Regex \\d+ is unanchored',
      severity: 'high',
    });
  });

  test.each([
    ['', 'the answer was empty'],
    ['Looks good to me!', 'no JSON object in the answer'],
    [
      '{"status":"ok","findings":[]}',
      'the JSON does not match the answer format at status: Invalid option: expected one of "pass"|"fail"',
    ],
    [
      '{"status":"fail","findings":[{"path":"a","severity":"urgent","title":"t"}]}',
      'the JSON does not match the answer format at findings.0.severity: Invalid option: expected one of "critical"|"high"|"medium"|"low"',
    ],
  ])('rejects %j: %s', (text, problem) => {
    expect(parseReviewAnswer(text)).toEqual({ ok: false, problem });
  });

  test('takes the structured output of a CLI that validated against the schema', () => {
    expect(parseReviewAnswer('', { status: 'pass', findings: [] })).toEqual({
      ok: true,
      answer: { status: 'pass', findings: [] },
    });
  });

  test('property: any valid answer survives prose around it and a code fence', () => {
    fc.assert(
      fc.property(answer, prose, prose, fc.boolean(), (value, before, after, fenced) => {
        const json = JSON.stringify(value, null, fenced ? 2 : 0);
        const text = fenced
          ? `${before}\n\`\`\`json\n${json}\n\`\`\`\n${after}`
          : `${before}\n${json}\n${after.replace(/[{}]/g, '')}`;
        const parsed = parseReviewAnswer(text);
        expect(parsed).toEqual({ ok: true, answer: expected(value) });
      }),
      { numRuns: 300 },
    );
  });

  test('property: a backslash that starts no valid escape is read as a backslash', () => {
    fc.assert(
      fc.property(answer, fc.constantFrom('\\d', '\\s', '\\.', '\\(', '\\_'), (value, backslashEscape) => {
        const withEscape = {
          ...value,
          findings: [{ path: 'a.ts', line: 1, severity: 'low', title: `t ${backslashEscape}`, body: '' }],
        };
        const text = JSON.stringify(withEscape).replace(
          JSON.stringify(`t ${backslashEscape}`),
          `"t ${backslashEscape}"`,
        );
        const parsed = parseReviewAnswer(text);
        expect(parsed.ok && parsed.answer.findings[0]?.title).toBe(`t ${backslashEscape}`);
      }),
    );
  });

  test('property: never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const parsed = parseReviewAnswer(text);
        expect(typeof parsed.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });

  test('stays fast on adversarial input (many unclosed braces and quotes)', () => {
    // CPU time, not wall time (a busy machine's wait for a core is not the parser's cost): about 0.15 s; every `{`
    // tried as an object start (no cap) takes 17 s.
    const text = `${'{"a":'.repeat(20_000)}${'"x'.repeat(20_000)}`;
    expect(cpuMs(() => parseReviewAnswer(text))).toBeLessThan(2000);
  });
});

test('repairJson leaves valid JSON unchanged', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const json = JSON.stringify(value);
      expect(JSON.parse(repairJson(json))).toEqual(JSON.parse(json));
    }),
  );
});
