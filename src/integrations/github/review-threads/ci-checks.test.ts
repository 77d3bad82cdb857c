import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CiCheck, judgeChecks } from './ci-checks.js';

const check = (name: string, state: CiCheck['state'], at: string | null = '2026-06-01T00:00:00Z'): CiCheck => ({
  name,
  state,
  githubState: state.toUpperCase(),
  at,
});

describe('judgeChecks: when GitHub CI vouches for a commit', () => {
  test('every reported check passed: passed, at the latest completion', () => {
    expect(judgeChecks([check('a', 'passed', '2026-06-01T01:00:00Z'), check('b', 'passed')], [])).toEqual({
      kind: 'passed',
      count: 2,
      at: '2026-06-01T01:00:00Z',
    });
  });

  test('nothing reported is never a pass', () => {
    expect(judgeChecks([], [])).toEqual({ kind: 'missing', names: [] });
  });

  test('required names: each must be reported and pass; others that run do not hold it up', () => {
    expect(judgeChecks([check('unit', 'passed'), check('deploy preview', 'pending', null)], ['unit'])).toMatchObject({
      kind: 'passed',
      count: 1,
    });
    expect(judgeChecks([check('lint', 'passed')], ['unit'])).toEqual({ kind: 'missing', names: ['unit'] });
  });

  test('a failed check fails it even when it is not required', () => {
    expect(judgeChecks([check('unit', 'passed'), check('e2e', 'failed')], ['unit'])).toEqual({
      kind: 'failed',
      names: ['e2e (failed)'],
    });
  });

  test('a skipped or neutral check is never a pass; one that is not required does not hold up the required ones', () => {
    expect(judgeChecks([check('unit', 'skipped')], [])).toEqual({ kind: 'failed', names: ['unit (skipped)'] });
    expect(judgeChecks([check('unit', 'passed'), check('deploy', 'skipped')], [])).toMatchObject({ kind: 'failed' });
    expect(judgeChecks([check('unit', 'passed'), check('deploy', 'skipped')], ['unit'])).toMatchObject({
      kind: 'passed',
      count: 1,
    });
    expect(judgeChecks([check('unit', 'skipped')], ['unit'])).toEqual({ kind: 'failed', names: ['unit (skipped)'] });
  });

  test('property: passed only when no check failed, at least one counted, and every counted one passed', () => {
    const arbitraryCheck = fc.record({
      name: fc.constantFrom('unit', 'lint', 'e2e', 'ci/jenkins'),
      state: fc.constantFrom<CiCheck['state']>('passed', 'pending', 'failed', 'skipped'),
      githubState: fc.constant('X'),
      at: fc.constant<string | null>('2026-06-01T00:00:00Z'),
    });
    fc.assert(
      fc.property(fc.array(arbitraryCheck, { maxLength: 6 }), fc.subarray(['unit', 'lint']), (checks, required) => {
        const judgement = judgeChecks(checks, required);
        if (judgement.kind !== 'passed') return;
        expect(checks.some((c) => c.state === 'failed')).toBe(false);
        const counted = required.length > 0 ? checks.filter((c) => required.includes(c.name)) : checks;
        expect(counted.length).toBeGreaterThan(0);
        expect(counted.every((c) => c.state === 'passed')).toBe(true);
        for (const name of required) expect(checks.some((c) => c.name === name)).toBe(true);
      }),
    );
  });
});
