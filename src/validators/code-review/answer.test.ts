import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  REVIEW_SEVERITIES,
  requestedReviewAnswerSchema,
  reviewAnswerJsonSchema,
  reviewAnswerSchema,
} from './answer.js';

/**
 * The review answer is declared once (zod); the JSON Schema handed to the CLIs is derived from it. These check the
 * two agree: whatever the JSON Schema lets a CLI produce, the parser accepts, and they name the same fields.
 */
const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const validate = new Ajv({ strict: true, allErrors: true }).compile(reviewAnswerJsonSchema());

const text = fc.string({ maxLength: 20 });
const requestedAnswer = fc.record({
  status: fc.constantFrom('pass', 'fail'),
  findings: fc.array(
    fc.record({
      path: fc.string({ minLength: 1, maxLength: 20 }).filter((path) => path.trim() !== ''),
      line: fc.option(fc.integer({ min: 0, max: 100_000 })),
      severity: fc.constantFrom(...REVIEW_SEVERITIES),
      title: fc.string({ minLength: 1, maxLength: 20 }).filter((title) => title.trim() !== ''),
      body: text,
      suggestion: fc.option(text),
      exclusionReason: fc.option(text),
    }),
    { maxLength: 3 },
  ),
});

describe('the review answer schema', () => {
  test('the JSON Schema is the one the CLIs were given (strict mode: every key required, optional ones nullable)', () => {
    expect(reviewAnswerJsonSchema()).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['status', 'findings'],
      properties: {
        status: { type: 'string', enum: ['pass', 'fail'] },
        findings: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['path', 'line', 'severity', 'title', 'body', 'suggestion', 'exclusionReason'],
            properties: {
              path: { type: 'string', description: 'Repository-relative path of the file.' },
              line: {
                type: ['integer', 'null'],
                description: 'Line in the new version of the file; null for the whole file.',
              },
              severity: { type: 'string', enum: [...REVIEW_SEVERITIES] },
              title: { type: 'string', description: 'One line: what is wrong.' },
              body: { type: 'string', description: 'Why it is wrong and what breaks.' },
              suggestion: { type: ['string', 'null'], description: 'How to fix it, or null.' },
              exclusionReason: {
                type: ['string', 'null'],
                description: 'Null, or why this finding should not block the change (pre-existing, out of scope).',
              },
            },
          },
        },
      },
    });
  });

  test('every answer the JSON Schema allows, the declaration and the parser accept', () => {
    fc.assert(
      fc.property(requestedAnswer, (answer) => {
        expect(validate(answer)).toBe(true);
        expect(requestedReviewAnswerSchema.safeParse(answer).success).toBe(true);
        const parsed = reviewAnswerSchema.parse(answer);
        expect(parsed.status).toBe(answer.status);
        expect(parsed.findings.map((finding) => finding.severity)).toEqual(
          answer.findings.map((finding) => finding.severity),
        );
      }),
    );
  });

  test('what the JSON Schema refuses, the declaration refuses too', () => {
    const finding = {
      path: 'a.ts',
      line: 1,
      severity: 'high',
      title: 't',
      body: 'b',
      suggestion: null,
      exclusionReason: null,
    };
    for (const answer of [
      { status: 'maybe', findings: [] },
      { status: 'pass' },
      { status: 'pass', findings: [], extra: 1 },
      { status: 'fail', findings: [{ ...finding, severity: 'urgent' }] },
      { status: 'fail', findings: [{ ...finding, line: 1.5 }] },
      { status: 'fail', findings: [{ ...finding, suggestion: undefined }] },
    ]) {
      expect([validate(answer), requestedReviewAnswerSchema.safeParse(answer).success]).toEqual([false, false]);
    }
  });

  test('the parser reads the same keys, leniently', () => {
    expect(Object.keys(reviewAnswerSchema.shape.findings.element.shape).sort()).toEqual(
      Object.keys(requestedReviewAnswerSchema.shape.findings.element.shape).sort(),
    );
    expect(
      reviewAnswerSchema.parse({
        status: ' PASS ',
        findings: [{ path: 'a.ts', line: '3', severity: 'High', title: 't' }],
      }),
    ).toEqual({ status: 'pass', findings: [{ path: 'a.ts', line: 3, severity: 'high', title: 't', body: '' }] });
  });
});
