import { createRequire } from 'node:module';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { JUDGE_JSON_SCHEMA, parseJudgeAnswer } from './judge-answer.js';

/** The judge's answer is declared once (zod); the JSON Schema handed to the CLIs is derived from it, and agrees. */
const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const validate = new Ajv({ strict: true }).compile(JUDGE_JSON_SCHEMA);

test('the JSON Schema is the one the CLIs were given', () => {
  expect(JUDGE_JSON_SCHEMA).toEqual({
    type: 'object',
    additionalProperties: false,
    required: ['winner_index', 'scores'],
    properties: {
      winner_index: { type: 'integer', minimum: 0 },
      scores: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['index', 'score', 'rationale'],
          properties: {
            index: { type: 'integer', minimum: 0 },
            score: { type: 'number', minimum: 0, maximum: 10 },
            rationale: { type: 'string' },
          },
        },
      },
    },
  });
});

test('the JSON Schema and the parser accept and refuse the same answers', () => {
  const index = fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constant(1.5));
  const answer = fc.record({
    winner_index: index,
    scores: fc.array(
      fc.record({ index, score: fc.double({ min: -1, max: 11, noNaN: true }), rationale: fc.string({ maxLength: 5 }) }),
      { maxLength: 2 },
    ),
  });
  fc.assert(
    fc.property(answer, (value) => {
      // Candidates cover every index, so only the schema decides.
      const parsed = parseJudgeAnswer('', value, [-2, -1, 0, 1, 1.5, 2, 3]);
      expect(parsed.ok).toBe(validate(value));
    }),
  );
  expect(validate({ winner_index: 0, scores: [{ index: 0, score: 1, rationale: '' }], extra: true })).toBe(false);
  expect(
    parseJudgeAnswer('', { winner_index: 0, scores: [{ index: 0, score: 1, rationale: '' }], extra: true }, [0]).ok,
  ).toBe(false);
});
