import { describe, expect, test } from 'vitest';
import { runReportWith } from '../../../test/support/run-report.js';
import type { ToolStatus } from '../result.js';
import { trustedCommitsOf, trustedDigestOf } from '../state/trusted-commits.js';
import type { ToolReport } from './run-report.js';
import { isRepeatablePass } from './unchanged-run.js';

const tool = (name: string, status: ToolStatus, findings = 0): ToolReport => ({
  name,
  title: name,
  status,
  summary: '',
  durationMs: 0,
  findings: Array.from({ length: findings }, () => ({ ruleId: 'r', severity: 'low', message: 'm' }) as never),
});

describe('isRepeatablePass: only a complete pass in which nothing ran is repeated', () => {
  test('a change (or none) whose validators all answered from their last pass is repeatable', () => {
    const tools = [tool('checks', 'skipped_no_changes'), tool('static_analysis', 'tool_unavailable')];
    expect(isRepeatablePass(runReportWith(tools))).toBe(true);
    expect(isRepeatablePass(runReportWith(tools, { changedFiles: 0 }))).toBe(true);
    expect(
      isRepeatablePass(runReportWith(tools, { base: { ref: 'x', commit: 'a'.repeat(40), source: 'pinned' } })),
    ).toBe(true);
  });

  test('a validator that ran, a finding, a partial or unstored run, a flag base, nothing skipped: not repeatable', () => {
    const skipped = tool('checks', 'skipped_no_changes');
    expect(isRepeatablePass(runReportWith([skipped, tool('secrets', 'passed')]))).toBe(false);
    expect(isRepeatablePass(runReportWith([tool('checks', 'skipped_no_changes', 1)]))).toBe(false);
    expect(isRepeatablePass(runReportWith([skipped, tool('secrets', 'incomplete')]))).toBe(false);
    expect(isRepeatablePass(runReportWith([skipped], { partial: true }))).toBe(false);
    expect(isRepeatablePass(runReportWith([skipped], { notStored: 'disk full' }))).toBe(false);
    expect(
      isRepeatablePass(runReportWith([skipped], { base: { ref: 'x', commit: 'a'.repeat(40), source: 'flag' } })),
    ).toBe(false);
    expect(isRepeatablePass(runReportWith([tool('static_analysis', 'tool_unavailable')]))).toBe(false);
    expect(isRepeatablePass(runReportWith([]))).toBe(false);
  });
});

describe('trusted commits of a history', () => {
  const history = {
    bases: [{ commit: 'b'.repeat(40), at: '2026-01-01T00:00:00Z' }],
    validated: [
      { commit: 'c'.repeat(40), at: '2026-01-03T00:00:00Z' },
      { commit: 'b'.repeat(40), at: '2026-01-02T00:00:00Z' },
    ],
  };

  test('newest first, each once; malformed entries are left out', () => {
    expect(trustedCommitsOf(history)).toEqual(['c'.repeat(40), 'b'.repeat(40)]);
    expect(trustedCommitsOf({ bases: [null, { commit: 1 }], validated: 'x' })).toEqual([]);
  });

  test('the digest changes with any trusted commit, not with the file around it', () => {
    const digest = trustedDigestOf(history);
    expect(trustedDigestOf({ ...history, flagBases: [{ commit: 'd'.repeat(40), at: 'z' }] } as never)).toBe(digest);
    expect(trustedDigestOf({ ...history, bases: [{ commit: 'd'.repeat(40), at: '2026-01-01T00:00:00Z' }] })).not.toBe(
      digest,
    );
    expect(trustedDigestOf(null)).toBe('');
  });
});
