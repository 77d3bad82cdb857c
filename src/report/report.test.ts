import { describe, expect, test } from 'vitest';
import { runReportWith } from '../../test/support/run-report.js';
import { makeFinding } from '../core/finding.js';
import { TOOL_STATUSES, type ToolStatus } from '../core/result.js';
import type { ToolReport } from '../core/run/run-report.js';
import { renderReport } from './index.js';
import { nextStep } from './next-step.js';

const failingCheck = makeFinding({
  validator: 'checks',
  ruleId: 'unit tests',
  severity: 'high',
  title: 'check "unit tests" failed (exit 1)',
  body: '`npm test` — last lines of output:\nAssertionError: expected 9, got 10',
  anchor: 'unit tests',
});
const onLine = makeFinding({
  validator: 'secrets',
  ruleId: 'github-pat',
  severity: 'critical',
  title: 'GitHub token (ghp_…)',
  path: 'src/a b.ts',
  line: 12,
  column: 7,
});

function tool(status: ToolStatus, findings = status === 'failed' ? [failingCheck] : []): ToolReport {
  return {
    name: 'checks',
    title: 'Project checks',
    status,
    summary: `summary for ${status}`,
    durationMs: 1200,
    findings,
  };
}

describe('reports', () => {
  test.each(TOOL_STATUSES)('markdown for a tool that ended %s', async (status) => {
    expect(await renderReport(runReportWith([tool(status)]), 'markdown')).toMatchSnapshot();
  });

  test('markdown lists ignored and skipped files, waivers and multiple sources', async () => {
    const waived = {
      ...onLine,
      sources: ['claude', 'codex'],
      waiver: { findingId: onLine.id, reason: 'test fixture', by: 'Ann (agent)', at: '2026-11-23T10:00:00Z' },
    };
    const report = runReportWith([{ ...tool('failed'), findings: [failingCheck, waived] }], {
      ignored: ['dist/x.js'],
      skippedFiles: [
        { path: 'big.bin', reason: 'too_large', detail: '3.2 MB over the 1 MB cap (validation.maxFileSize)' },
      ],
    });
    expect(await renderReport(report, 'markdown')).toMatchSnapshot();
  });

  test('long output is cut to output.maxOutputLines: the failure lines, then the end', async () => {
    const body = Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join('\n');
    const report = runReportWith([{ ...tool('failed'), findings: [{ ...failingCheck, body }] }], { maxOutputLines: 5 });
    const text = await renderReport(report, 'markdown');
    expect(text).toContain('… 96 line(s) omitted');
    expect(text).toContain('line 100');
    expect(text).not.toContain('line 50\n');
    const failing = body.replace('line 20\n', 'AssertionError: line 20 broke\n');
    const withCause = runReportWith([{ ...tool('failed'), findings: [{ ...failingCheck, body: failing }] }], {
      maxOutputLines: 5,
    });
    const shown = await renderReport(withCause, 'markdown');
    expect(shown).toContain('AssertionError: line 20 broke');
    expect(shown).toContain('line 100');
    const json = JSON.parse(await renderReport(withCause, 'json'));
    expect(json.tools[0].findings[0].excerpt).toMatch(/^… 19 line\(s\) omitted\nAssertionError: line 20 broke\n/);
  });

  test('json carries the whole report and the next step', async () => {
    const parsed = JSON.parse(await renderReport(runReportWith([tool('failed')]), 'json'));
    expect(parsed).toMatchObject({ verdict: 'failed', tools: [{ status: 'failed' }] });
    expect(parsed.next).toMatch(/^Fix the findings above/);
  });

  test('sarif is 2.1.0 with repo-relative URIs, stable rule ids and fingerprints', async () => {
    const sarif = JSON.parse(
      await renderReport(
        runReportWith([{ ...tool('failed'), findings: [failingCheck, onLine] }], { sarifChecks: true }),
        'sarif',
      ),
    );
    expect(sarif.version).toBe('2.1.0');
    const [run] = sarif.runs;
    expect(run.tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual([
      'checks/unit tests',
      'secrets/github-pat',
    ]);
    expect(run.results[1]).toMatchObject({
      ruleId: 'secrets/github-pat',
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/a%20b.ts', uriBaseId: '%SRCROOT%' },
            region: { startLine: 12, startColumn: 7 },
          },
        },
      ],
      partialFingerprints: { tollgateFindingId: onLine.id },
    });
    // A failed check names no file: it points at the config that defines it, or code scanning rejects the upload.
    expect(run.results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('tollgate.config.yaml');
  });

  test.each([
    [['passed'], 'All validators passed. The change may be declared done.'],
    [
      ['passed', 'tool_unavailable'],
      'All validators passed (checks could not run here: see above). The change may be declared done.',
    ],
    [
      ['failed', 'timeout'],
      'Validation ran out of time. Do not rerun it as is: split the change, give slow checks `paths`, or raise `validation.timeout`.',
    ],
    [
      ['rate_limited'],
      'A validator was rate limited. Wait a few minutes, then run `tollgate run` again; the other results are kept.',
    ],
  ] as [ToolStatus[], string][])('the next step after %j', (statuses, expected) => {
    expect(nextStep(runReportWith(statuses.map((status) => tool(status))))).toBe(expected);
  });

  test('a partial run that passed still asks for a full run', async () => {
    expect(nextStep(runReportWith([tool('passed')], { partial: true }))).toBe(
      'The selected validators passed. Run `tollgate run` without --only/--skip before declaring the change done.',
    );
  });
});

describe('SARIF that GitHub code scanning accepts', () => {
  test('passes the official schema and the upload rules: every result located, URIs encoded, no local path', async () => {
    const { sarifProblems } = await import('../../test/support/sarif-checks.js');
    const odd = { ...onLine, id: 'odd0000000000000', path: 'src/we ird#1?.js' };
    const report = runReportWith([{ ...tool('failed'), findings: [failingCheck, onLine, odd] }], {
      configFile: 'tollgate.config.yaml',
      configLines: { 'unit tests': 7 },
      sarifChecks: true,
    });
    const text = await renderReport(report, 'sarif');
    expect(sarifProblems(text)).toEqual([]);
    const results = JSON.parse(text).runs[0].results;
    expect(results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'tollgate.config.yaml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 7 },
    });
    expect(results[2].locations[0].physicalLocation.artifactLocation.uri).toBe('src/we%20ird%231%3F.js');
    expect(text).not.toContain('/work/repo');
    const rules = JSON.parse(text).runs[0].tool.driver.rules;
    const secretRule = rules.find((rule: { id: string }) => rule.id === 'secrets/github-pat');
    expect(secretRule).toMatchObject({
      properties: { tags: ['security', 'secrets', 'external/cwe/cwe-798'], 'security-severity': '9.5' },
    });
    expect(secretRule.fullDescription.text).toBeTruthy();
    expect(secretRule.help).toMatchObject({ text: expect.stringContaining('rotate'), markdown: expect.any(String) });
    // Self-contained: the alert's reader has the repository, not our run directory.
    expect(JSON.stringify(secretRule.help)).not.toMatch(/run-|tollgate log/);
    const checkRule = rules.find((rule: { id: string }) => rule.id === 'checks/unit tests');
    expect(checkRule.properties).toEqual({ tags: ['checks'] });
  });

  test('failed project checks are annotations, not code scanning alerts, unless output.sarifChecks', async () => {
    const text = await renderReport(runReportWith([{ ...tool('failed'), findings: [failingCheck, onLine] }]), 'sarif');
    const [run] = JSON.parse(text).runs;
    expect(run.results.map((result: { ruleId: string }) => result.ruleId)).toEqual(['secrets/github-pat']);
    expect(run.invocations[0].executionSuccessful).toBe(true);
  });

  test('a validator that could not finish makes the invocation unsuccessful, saying why', async () => {
    const { sarifProblems } = await import('../../test/support/sarif-checks.js');
    const secrets: ToolReport = {
      name: 'secrets',
      title: 'Secrets',
      status: 'incomplete',
      summary: '2 file(s) could not be read',
      durationMs: 5,
      findings: [],
    };
    const text = await renderReport(runReportWith([tool('passed'), secrets]), 'sarif');
    expect(sarifProblems(text)).toEqual([]);
    const [invocation] = JSON.parse(text).runs[0].invocations;
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications[0].message.text).toBe('secrets: 2 file(s) could not be read');
  });

  test('past 25,000 results the most severe are kept, and the report says how many were left out', async () => {
    const { sarifProblems } = await import('../../test/support/sarif-checks.js');
    const many = Array.from({ length: 26_002 }, (_, index) =>
      makeFinding({
        validator: 'static_analysis',
        ruleId: 'rule',
        severity: index < 2 ? 'critical' : 'low',
        title: `finding ${index}`,
        path: 'src/a.ts',
        line: index + 1,
      }),
    );
    const text = await renderReport(runReportWith([{ ...tool('failed'), findings: many }]), 'sarif');
    const run = JSON.parse(text).runs[0];
    expect(run.results).toHaveLength(25_000);
    expect(run.properties.droppedResults).toBe(1_002);
    expect(run.results.filter((result: { level: string }) => result.level === 'error')).toHaveLength(2);
    expect(sarifProblems(text)).toEqual([]);
  });
});
