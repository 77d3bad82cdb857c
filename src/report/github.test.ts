import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runReportWith } from '../../test/support/run-report.js';
import { makeFinding, type Severity } from '../core/finding.js';
import type { RunReport, ToolReport } from '../core/run/run-report.js';
import { ANNOTATIONS_PER_KIND, escapeData, escapeProperty, renderGithub } from './github.js';

/** The runner's side: a workflow command line split into its kind, properties and message, unescaped. */
function parseCommand(line: string): { kind: string; properties: Record<string, string>; message: string } | null {
  const match = /^::([a-z]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!match) return null;
  const unescapeCommand = (text: string) =>
    text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const properties = Object.fromEntries(
    (match[2] ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at), unescapeCommand(pair.slice(at + 1))];
      }),
  );
  return { kind: match[1]!, properties, message: unescapeCommand(match[3]!) };
}

function reportWith(tools: ToolReport[], extra: Partial<RunReport> = {}): RunReport {
  return runReportWith(tools, {
    runId: 'r1',
    changedFiles: 2,
    configFile: 'tollgate.config.yaml',
    configLines: { unit: 3 },
    ...extra,
  });
}

function toolWith(name: string, findings: ToolReport['findings'], status: ToolReport['status'] = 'failed'): ToolReport {
  return { name, title: name, status, summary: `${name} summary`, durationMs: 1, findings };
}

function secretAt(line: number, severity: Severity = 'critical', title = 'GitHub token (ghp_…)') {
  return makeFinding({ validator: 'secrets', ruleId: 'github-pat', severity, title, path: 'src/a,b:c.ts', line });
}

const commands = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map(parseCommand)
    .filter((command) => command !== null);

describe('--format github', () => {
  test('escaping: any text survives as one line and reads back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (title, message) => {
        const line = `::error file=${escapeProperty('a.ts')},title=${escapeProperty(title)}::${escapeData(message)}`;
        expect(line).not.toMatch(/[\r\n]/);
        expect(parseCommand(line)).toEqual({ kind: 'error', properties: { file: 'a.ts', title }, message });
      }),
    );
  });

  test('a finding is an annotation on its file and line, by severity, with its title and body', () => {
    const finding = makeFinding({
      validator: 'static_analysis',
      ruleId: 'js/sql-injection',
      severity: 'medium',
      title: 'SQL built from user input',
      body: 'line one\n::error::injected\n100% sure',
      path: 'src/db.ts',
      line: 10,
      endLine: 12,
      column: 4,
    });
    const [headline, ...rest] = renderGithub(reportWith([toolWith('static_analysis', [finding])]))
      .trimEnd()
      .split('\n');
    expect(headline).toBe('tollgate: FAILED: 1 blocking finding(s), 2 changed file(s), run r1');
    expect(rest).toHaveLength(1);
    expect(parseCommand(rest[0]!)).toEqual({
      kind: 'warning',
      properties: {
        file: 'src/db.ts',
        line: '10',
        endLine: '12',
        col: '4',
        title: 'static_analysis: SQL built from user input',
      },
      message: `line one\n::error::injected\n100% sure\n(medium, ${finding.id})`,
    });
  });

  test('a failed check points at the config line that defines it; a tool failing without findings is an error', () => {
    const check = makeFinding({ validator: 'checks', ruleId: 'unit', severity: 'high', title: 'check "unit" failed' });
    const text = renderGithub(
      reportWith([
        toolWith('checks', [check]),
        toolWith('advisories', [], 'timeout'),
        toolWith('secrets', [], 'passed'),
      ]),
    );
    expect(commands(text).map((command) => [command.kind, command.properties.file, command.properties.line])).toEqual([
      ['error', 'tollgate.config.yaml', '3'],
      ['error', 'tollgate.config.yaml', undefined],
    ]);
    expect(commands(text)[1]!.properties.title).toBe('advisories: TIMED OUT');
  });

  test('waived findings and passing validators make no annotation; a passed run says so', () => {
    const finding = secretAt(1);
    const waived = {
      ...finding,
      waiver: { findingId: finding.id, by: 'ana', reason: 'test fixture', at: '2026-11-25T10:00:00Z' },
    };
    const text = renderGithub(reportWith([toolWith('secrets', [waived], 'passed')]));
    expect(text).toBe('tollgate: passed: 0 blocking finding(s), 2 changed file(s), run r1\n');
  });

  test(`past ${ANNOTATIONS_PER_KIND} of a kind, the rest are log lines and one notice counts them`, () => {
    const many = Array.from({ length: 25 }, (_, index) => secretAt(index + 1));
    const lows = Array.from({ length: 12 }, (_, index) => secretAt(index + 1, 'low', `low ${index}`));
    const text = renderGithub(reportWith([toolWith('secrets', [...many, ...lows])]));
    const parsed = commands(text);
    expect(parsed.filter((command) => command.kind === 'error')).toHaveLength(ANNOTATIONS_PER_KIND);
    const notices = parsed.filter((command) => command.kind === 'notice');
    expect(notices).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(notices.at(-1)!.message).toMatch(/^18 more result\(s\) not annotated/);
    // Every finding is still in the log.
    expect(text.split('\n').filter((line) => line.includes('GitHub token'))).toHaveLength(25);
    // Errors come before notices, so a cap never hides an error behind a low.
    expect(parsed.findIndex((command) => command.kind === 'notice')).toBeGreaterThan(
      parsed.findLastIndex((command) => command.kind === 'error'),
    );
  });

  test('skipped files, a partial run and unstored results are said', () => {
    const text = renderGithub(
      reportWith([toolWith('secrets', [], 'passed')], {
        partial: true,
        notStored: 'disk full',
        skippedFiles: [{ path: 'big.bin', reason: 'too_large', detail: '3 MB over the 1 MB cap' }],
      }),
    );
    expect(commands(text).map((command) => `${command.kind} ${command.properties.title}`)).toEqual([
      'error tollgate: results not stored',
      'warning tollgate: file not examined',
      'notice tollgate: partial run',
    ]);
  });
  test('a failed check annotates the failing line of a long output, not its passing head', () => {
    const output = [
      ...Array.from({ length: 300 }, (_, index) => `ok ${index + 1} - passes ${index}`),
      'not ok 301 - add is broken: expected 3',
      '# fail 1',
      '— `node test.js` exited 1; full log: .tollgate/runs/r1/checks/unit.log',
    ].join('\n');
    const check = makeFinding({
      validator: 'checks',
      ruleId: 'unit',
      severity: 'high',
      title: 'check "unit" failed (exit 1)',
      body: output,
    });
    const [annotation] = commands(renderGithub(reportWith([toolWith('checks', [check])])));
    expect(annotation?.properties).toMatchObject({ file: 'tollgate.config.yaml', line: '3' });
    expect(annotation?.message).toContain('not ok 301 - add is broken: expected 3');
    expect(annotation?.message).toContain('full log: .tollgate/runs/r1/checks/unit.log');
    expect(annotation?.message).not.toContain('ok 1 - passes 0');
  });
});
