import { describe, expect, test } from 'vitest';
import { parseChallengeAnswer } from './challenge-answer.js';
import { fallbackWinner, parseJudgeAnswer } from './judge-answer.js';

describe('parseJudgeAnswer', () => {
  const valid = {
    winner_index: 1,
    scores: [
      { index: 0, score: 4, rationale: 'a' },
      { index: 1, score: 8, rationale: 'b' },
    ],
  };
  test.each([
    ['plain JSON', JSON.stringify(valid), { ok: true }],
    ['JSON in a fence after prose', `Here:\n\`\`\`json\n${JSON.stringify(valid)}\n\`\`\``, { ok: true }],
    ['prose only', 'Report 1 is best', { ok: false, problem: 'no JSON object in the answer' }],
    [
      'a string index',
      '{"winner_index":"1","scores":[]}',
      { ok: false, problem: 'winner_index: Invalid input: expected number, received string' },
    ],
    [
      'a winner that is not a report',
      JSON.stringify({ ...valid, winner_index: 2 }),
      { ok: false, problem: 'winner_index 2 is not a report index (0, 1)' },
    ],
    [
      'a score over 10',
      JSON.stringify({ ...valid, scores: [{ index: 1, score: 11, rationale: '' }] }),
      { ok: false, problem: 'scores.0.score: Too big: expected number to be <=10' },
    ],
  ])('%s', (_name, text, expected) => {
    expect(parseJudgeAnswer(text, undefined, [0, 1])).toMatchObject(expected);
  });
});

describe('fallbackWinner', () => {
  test.each([
    [
      'refuted loses to a failing but unrefuted report',
      [
        { index: 0, evalScore: 1, evalPassed: true, challenge: 'REFUTED' as const },
        { index: 1, evalScore: 0.5, evalPassed: false, challenge: 'INSUFFICIENT_EVIDENCE' as const },
      ],
      1,
    ],
    [
      'passing evals beat a higher score that fails an error check',
      [
        { index: 0, evalScore: 0.9, evalPassed: false, challenge: 'CONFIRMED' as const },
        { index: 1, evalScore: 0.8, evalPassed: true, challenge: 'CONFIRMED' as const },
      ],
      1,
    ],
    [
      'a tie goes to the confirmed one, then the lower index',
      [
        { index: 0, evalScore: 1, evalPassed: true, challenge: 'INSUFFICIENT_EVIDENCE' as const },
        { index: 1, evalScore: 1, evalPassed: true, challenge: 'CONFIRMED' as const },
        { index: 2, evalScore: 1, evalPassed: true, challenge: 'CONFIRMED' as const },
      ],
      1,
    ],
  ])('%s', (_name, candidates, winner) => {
    expect(fallbackWinner(candidates)).toBe(winner);
  });
  test('no candidates, no winner', () => expect(fallbackWinner([])).toBeNull());
});

test.each([
  [
    'a fenced answer',
    '```json\n{"verdict":"refuted","reasoning":"log missing"}\n```',
    { status: 'answered', verdict: 'REFUTED' },
  ],
  ['an unknown verdict', '{"verdict":"MAYBE"}', { status: 'failed', verdict: 'INSUFFICIENT_EVIDENCE' }],
  ['prose', 'looks fine to me', { status: 'failed', verdict: 'INSUFFICIENT_EVIDENCE' }],
])('parseChallengeAnswer: %s', (_name, text, expected) => {
  expect(parseChallengeAnswer(text)).toMatchObject(expected);
});
