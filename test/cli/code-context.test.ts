import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { makeFinding } from '../../src/core/finding.js';
import { withCodeContext } from '../../src/core/run/code-context.js';
import type { RunReport } from '../../src/core/run/run-report.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-context-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const canary = fakeChecksumToken('ghp_', 'canary-context');

function reportOf(findings: RunReport['tools'][number]['findings'], tool = 'static_analysis'): RunReport {
  return {
    tool: 'tollgate',
    version: '0',
    runId: 'r',
    startedAt: '2026-11-25T10:00:00Z',
    durationMs: 1,
    verdict: 'failed',
    repoRoot: root,
    base: { ref: 'main', commit: null, source: 'default-branch' },
    fingerprint: '',
    changedFiles: 1,
    ignored: [],
    skippedFiles: [],
    partial: false,
    tools: [{ name: tool, title: tool, status: 'failed', summary: '', durationMs: 1, findings }],
    maxOutputLines: 40,
  };
}

describe('code context for the HTML report', () => {
  writeFileSync(join(root, 'a.ts'), ['l1', 'l2', `const token = "${canary}";`, 'l4', 'l5', 'l6', 'l7'].join('\n'));
  const at = (path: string, line: number) =>
    makeFinding({ validator: 'static_analysis', severity: 'high', title: 't', path, line });

  test('two lines around the finding, masked, from inside the repository only', async () => {
    const inside = at('a.ts', 3);
    const outside = at('../../etc/passwd', 1);
    const { codeContext } = await withCodeContext(reportOf([inside, outside, at('a.ts', 99)]));
    expect(Object.keys(codeContext!)).toEqual([inside.id]);
    expect(codeContext![inside.id]!.startLine).toBe(1);
    expect(codeContext![inside.id]!.lines).toHaveLength(5);
    expect(JSON.stringify(codeContext)).not.toContain(canary);
  });

  test('secret findings get none', async () => {
    const finding = makeFinding({ validator: 'secrets', severity: 'critical', title: 't', path: 'a.ts', line: 3 });
    expect((await withCodeContext(reportOf([finding], 'secrets'))).codeContext).toEqual({});
  });
});
