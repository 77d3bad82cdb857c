import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runReportWith } from '../../../test/support/run-report.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { makeFinding } from '../finding.js';
import { boundReport, STORED_LIMITS } from './bound-report.js';
import type { ToolReport } from './run-report.js';
import { readStoredReport, STORED_REPORT_FILE, storeRunReport } from './stored-report.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-stored-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const canary = fakeChecksumToken('ghp_', 'canary-stored-report');

function checksTool(body: string, count = 1): ToolReport {
  const findings = Array.from({ length: count }, (_, index) =>
    makeFinding({ validator: 'checks', ruleId: `c${index}`, severity: 'high', title: `check ${index} failed`, body }),
  );
  return { name: 'checks', title: 'Checks', status: 'failed', summary: 'failed', durationMs: 1, findings };
}

describe('the stored report of a run', () => {
  test('written masked and read back as written; 0600', async () => {
    const runId = '20261127T000000Z-aaaaaa';
    mkdirSync(join(root, '.tollgate/runs', runId), { recursive: true });
    const report = runReportWith([checksTool(`not ok 1\ntoken ${canary}`)], { runId, repoRoot: root });
    expect(await storeRunReport(report)).toBe(true);
    const path = join(root, '.tollgate/runs', runId, STORED_REPORT_FILE);
    expect(readFileSync(path, 'utf8')).not.toContain(canary);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const read = await readStoredReport(root, runId);
    expect(read.kind).toBe('ok');
    if (read.kind !== 'ok') return;
    expect(read.report.runId).toBe(runId);
    expect(read.report.tools[0]!.findings[0]!.body).toMatch(/^not ok 1\ntoken ghp_…/);
    expect(read.report.codeContext).toEqual({});
  });

  test('a long file list is cut before it is masked: the names kept are masked, the cut is said once', async () => {
    const runId = '20261127T000000Z-cccccc';
    mkdirSync(join(root, '.tollgate/runs', runId), { recursive: true });
    const files = Array.from({ length: STORED_LIMITS.files + 500 }, (_, index) => ({
      path: index === 7 ? `leak/${canary}.txt` : `f${index}.ts`,
      status: 'added',
    }));
    const ran = runReportWith([checksTool('ok')], { runId, repoRoot: root, files });
    expect(await storeRunReport(ran)).toBe(true);
    const text = readFileSync(join(root, '.tollgate/runs', runId, STORED_REPORT_FILE), 'utf8');
    expect(text).not.toContain(canary);
    const read = await readStoredReport(root, runId);
    if (read.kind !== 'ok') throw new Error(read.kind);
    expect(read.report.files).toHaveLength(STORED_LIMITS.files);
    expect(read.report.files?.[7]?.path).toMatch(/^leak\/ghp_…/);
    expect(read.report.left).toEqual(['the names of 500 more changed file(s)']);
  });

  test('no validator ran: the names are left out (nothing to mask them for), the counts and the note stay', async () => {
    const runId = '20261127T000000Z-dddddd';
    mkdirSync(join(root, '.tollgate/runs', runId), { recursive: true });
    const files = [
      { path: `leak/${canary}.txt`, status: 'added' },
      { path: 'b.ts', status: 'modified' },
    ];
    const skippedFiles = [{ path: 'big.bin', reason: 'too_large' as const, detail: 'over the cap' }];
    const report = runReportWith([], {
      runId,
      repoRoot: root,
      files,
      changedFiles: 2,
      ignored: ['x.log'],
      skippedFiles,
    });
    expect(await storeRunReport(report)).toBe(true);
    const text = readFileSync(join(root, '.tollgate/runs', runId, STORED_REPORT_FILE), 'utf8');
    expect(text).not.toContain('leak/');
    const read = await readStoredReport(root, runId);
    if (read.kind !== 'ok') throw new Error(read.kind);
    expect(read.report).toMatchObject({ changedFiles: 2, files: [], ignored: [], skippedFiles: [] });
    expect(read.report.left).toEqual(['the names of 4 changed, ignored or skipped file(s), as no validator ran']);
  });

  test('a run without one reads as missing, a damaged one as corrupt with the reason', async () => {
    const runId = '20261127T000000Z-bbbbbb';
    mkdirSync(join(root, '.tollgate/runs', runId), { recursive: true });
    expect(await readStoredReport(root, runId)).toEqual({ kind: 'missing' });
    writeFileSync(join(root, '.tollgate/runs', runId, STORED_REPORT_FILE), '{"storedReport":1,"report":{"tool":"x"}}');
    const read = await readStoredReport(root, runId);
    expect(read.kind).toBe('corrupt');
  });

  test('bounded: a huge output keeps its failure lines and tail, and the report says what it left out', () => {
    const lines = ['not ok 1 - the cause', ...Array.from({ length: 20_000 }, (_, index) => `ok ${index + 2}`)];
    const bounded = boundReport(runReportWith([checksTool(lines.join('\n'))]));
    const body = bounded.tools[0]!.findings[0]!.body!;
    expect(body.split('\n').length).toBeLessThanOrEqual(STORED_LIMITS.bodyLines);
    expect(body).toContain('not ok 1 - the cause');
    expect(body.endsWith('ok 20001')).toBe(true);
    expect(bounded.left).toEqual(['1 long output(s) keep their failure lines and last lines only']);
  });

  test('bounded: past the size limit, bodies shrink to their excerpts, then the last findings go', () => {
    const body = Array.from({ length: 150 }, (_, index) => `line ${index} ${'x'.repeat(300)}`).join('\n');
    const files = Array.from({ length: 3_000 }, (_, index) => ({ path: `f${index}.ts`, status: 'added' }));
    const bounded = boundReport(runReportWith([checksTool(body, 400)], { files, maxOutputLines: 10 }));
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(STORED_LIMITS.bytes);
    expect(bounded.files).toHaveLength(STORED_LIMITS.files);
    expect(bounded.left).toContain('the names of 1000 more changed file(s)');
    expect(bounded.left).toContain('every output beyond its excerpt');
    expect(bounded.tools[0]!.findings).toHaveLength(400);
    expect(bounded.tools[0]!.findings[0]!.body!.split('\n')).toHaveLength(10);
    const many = boundReport(runReportWith([checksTool('x'.repeat(200), 30_000)], { maxOutputLines: 10 }));
    expect(JSON.stringify(many).length).toBeLessThanOrEqual(STORED_LIMITS.bytes);
    expect(many.left?.at(-1)).toMatch(/^\d+ finding\(s\) at the end of the list/);
  });
});
