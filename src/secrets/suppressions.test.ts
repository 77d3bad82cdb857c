import { describe, expect, test } from 'vitest';
import type { Severity } from '../core/finding.js';
import {
  ADDED_LINES_POLICY,
  type AppliedSuppression,
  blockedSuppressionNote,
  formatSuppression,
  type GateSuppressionPolicy,
  judgeSuppression,
} from './suppressions.js';

/** Which suppressions clear a secret in the gate (pure): a change may not clear its own high or critical secret. */
const at = (severity: Severity, line = 10) => ({ severity, path: 'app.env', line });

/** A policy where the change added exactly `lines` of app.env. */
const policy = (lines: number[], committed = true, importsCommitted = true): GateSuppressionPolicy => ({
  addedLine: (path, line) => path === 'app.env' && lines.includes(line),
  baselineCommitted: committed,
  importsCommitted,
});

describe('judgeSuppression', () => {
  test.each<Severity>(['critical', 'high'])(
    'an inline marker the change added on a %s secret does not clear it',
    (severity) => {
      expect(judgeSuppression('inline', at(severity), policy([10]))).toBe('inline-added');
      expect(judgeSuppression('inline', at(severity), ADDED_LINES_POLICY)).toBe('inline-added');
    },
  );

  test.each<Severity>(['medium', 'low', 'info'])(
    'a %s secret needs no person: every suppression applies',
    (severity) => {
      expect(judgeSuppression('inline', at(severity), policy([10]))).toBe('applies');
      expect(judgeSuppression('baseline', at(severity), policy([], false))).toBe('applies');
      expect(judgeSuppression('imported', at(severity), policy([], true, false))).toBe('applies');
    },
  );

  test('outside the gate (no policy) every suppression applies', () => {
    expect(judgeSuppression('inline', at('critical'), undefined)).toBe('applies');
    expect(judgeSuppression('baseline', at('high'), undefined)).toBe('applies');
  });

  test('an old marker on an old line applies; a new secret under an old marker line does not, nor an old secret under a new one', () => {
    expect(judgeSuppression('inline', at('high', 10), policy([]), 9)).toBe('applies');
    expect(judgeSuppression('inline', at('high', 10), policy([10]), 9)).toBe('inline-added');
    expect(judgeSuppression('inline', at('high', 10), policy([9]), 9)).toBe('inline-added');
    expect(judgeSuppression('inline', at('high', 10), policy([9]))).toBe('applies');
    expect(judgeSuppression('inline', { ...at('high', 10), path: 'other.env' }, policy([10]))).toBe('applies');
  });

  test('without a marker line of its own, only the finding’s line is asked about', () => {
    const allButTen: GateSuppressionPolicy = { addedLine: (_path, line) => line !== 10, baselineCommitted: true };
    expect(judgeSuppression('inline', at('high', 10), allButTen)).toBe('applies');
    expect(judgeSuppression('inline', at('high', 10), allButTen, 9)).toBe('inline-added');
  });

  test('a baseline clears a high secret only when it is committed', () => {
    expect(judgeSuppression('baseline', at('high'), policy([10], true))).toBe('applies');
    expect(judgeSuppression('baseline', at('high'), policy([], false))).toBe('baseline-uncommitted');
    // The baseline is judged by where it is kept, not by the line: a committed one applies on an added line too.
    expect(judgeSuppression('baseline', at('critical'), policy([10], true, false))).toBe('applies');
  });

  test('an imported entry clears a high secret only when its file is committed (unknown counts as not)', () => {
    expect(judgeSuppression('imported', at('critical'), policy([10], false, true))).toBe('applies');
    expect(judgeSuppression('imported', at('critical'), policy([], true, false))).toBe('import-uncommitted');
    expect(judgeSuppression('imported', at('high'), { addedLine: () => false, baselineCommitted: true })).toBe(
      'import-uncommitted',
    );
  });

  test('the added-lines policy (scan --staged, the pre-commit hook) keeps baseline and imported files in effect', () => {
    expect(judgeSuppression('baseline', at('critical'), ADDED_LINES_POLICY)).toBe('applies');
    expect(judgeSuppression('imported', at('critical'), ADDED_LINES_POLICY)).toBe('applies');
  });
});

describe('what a blocked suppression says', () => {
  test.each([
    ['inline-added', /^Suppression added by this change: needs a person's waiver\. The `tollgate:allow` on this line/],
    ['import-uncommitted', /^Imported suppression outside the reviewed repository: needs a person's waiver\./],
    ['baseline-uncommitted', /^Baseline outside the reviewed repository: needs a person's waiver\./],
  ] as const)('%s', (reason, note) => {
    expect(blockedSuppressionNote(reason)).toMatch(note);
  });
});

describe('formatSuppression', () => {
  const applied: AppliedSuppression = {
    kind: 'inline',
    path: 'app.env',
    line: 3,
    ruleId: 'github-pat',
    severity: 'critical',
    masked: 'ghp_…abcd',
    fingerprint: 'f',
    source: 'tollgate:allow',
  };

  test.each([
    [applied, 'app.env:3 secrets/github-pat (critical, ghp_…abcd) cleared by `tollgate:allow`'],
    [
      { ...applied, reason: 'test fixture' },
      'app.env:3 secrets/github-pat (critical, ghp_…abcd) cleared by `tollgate:allow` ("test fixture")',
    ],
    [
      { ...applied, kind: 'baseline' as const, source: '.tollgate/baseline.json' },
      'app.env:3 secrets/github-pat (critical, ghp_…abcd) cleared by baseline .tollgate/baseline.json',
    ],
    [
      { ...applied, kind: 'imported' as const, source: '.gitleaksignore:3' },
      'app.env:3 secrets/github-pat (critical, ghp_…abcd) cleared by .gitleaksignore:3',
    ],
  ])('%#: one line naming the place, rule, masked value and what cleared it', (suppression, line) => {
    expect(formatSuppression(suppression)).toBe(line);
  });
});
