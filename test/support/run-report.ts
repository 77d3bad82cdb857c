import { type RunReport, type ToolReport, verdictOf } from '../../src/core/run/run-report.js';

/** A run report around the given tools, for renderer tests; `extra` overrides any field. */
export function runReportWith(tools: ToolReport[], extra: Partial<RunReport> = {}): RunReport {
  return {
    tool: 'tollgate',
    version: '0.1.0',
    runId: '20261123T100000Z-abc123',
    startedAt: '2026-11-23T10:00:00.000Z',
    durationMs: 2300,
    verdict: verdictOf(tools),
    repoRoot: '/work/repo',
    base: { ref: 'main', commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', source: 'default-branch' },
    fingerprint: 'f'.repeat(64),
    changedFiles: 3,
    ignored: [],
    skippedFiles: [],
    partial: false,
    tools,
    maxOutputLines: 40,
    ...extra,
  };
}
