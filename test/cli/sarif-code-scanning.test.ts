import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';
import { sarifProblems } from '../support/sarif-checks.js';

const CODEQL_SARIF = join(import.meta.dirname, '../fixtures/sarif/codeql/2.21/javascript-typescript.sarif');
const DB_JS = [
  "const express = require('express');",
  'function find(req, db) {',
  '  const name = req.query.name;',
  '  return db.query("SELECT * FROM users WHERE name = \'" + name + "\'");',
  '}',
  '',
  'function unused() {',
  '  let x;',
  '  let unused = 1;',
  '}',
  '',
].join('\n');

// biome-ignore lint/suspicious/noExplicitAny: a SARIF document read back in a test
type Json = any;

interface Run {
  tool: { driver: { name: string; semanticVersion?: string; rules: Array<Record<string, Json>> } };
  automationDetails: { id: string };
  invocations: Array<{ executionSuccessful: boolean; toolExecutionNotifications?: unknown[] }>;
  results: Array<Record<string, Json>>;
}

describe('SARIF as GitHub code scanning ingests it (built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': `checks:\n  - name: unit\n    run: "false"\nstatic_analysis:\n  codeql: { enabled: false }\n  semgrep: { enabled: false }\n  eslint: { enabled: false }\n  failOn: critical\n  analyzers:\n    - name: codeql-ci\n      run: cp '${CODEQL_SARIF}' "$TOLLGATE_SARIF"\n      sarif: .tollgate/codeql.sarif\n`,
      },
    });
    await repo.write('src/db.js', DB_JS);
  });
  afterEach(() => repo.cleanup());

  test('run: imported CodeQL results keep their driver, rule metadata, code flow and related locations; checks stay out', async () => {
    const result = await runCli(['run', '--format', 'sarif'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(sarifProblems(result.stdout)).toEqual([]);
    const runs = JSON.parse(result.stdout).runs as Run[];
    expect(runs.map((run) => run.tool.driver.name)).toEqual(['tollgate', 'CodeQL']);
    const [own, codeql] = runs as [Run, Run];
    // A failed project check is an annotation, not a code scanning alert.
    expect(own.results.filter((r) => String(r.ruleId).startsWith('checks/'))).toEqual([]);
    expect(own.automationDetails.id).toMatch(/^tollgate\/run\/[^/]+$/);
    expect(codeql.automationDetails.id).toMatch(/^tollgate\/run\/codeql\/[^/]+$/);
    expect(codeql.tool.driver.semanticVersion).toBe('2.21.0');
    const sqlRule = codeql.tool.driver.rules.find((rule) => rule.id === 'js/sql-injection')!;
    expect(sqlRule.properties).toMatchObject({
      tags: ['security', 'external/cwe/cwe-089'],
      'security-severity': '8.8',
      precision: 'high',
    });
    expect(sqlRule.help.markdown).toContain('query parameters');
    const sql = codeql.results.find((r) => r.ruleId === 'js/sql-injection')!;
    expect(sql.message.text).toBe('This query string depends on a [user-provided value](1).');
    expect(sql.relatedLocations).toEqual([
      expect.objectContaining({
        id: 1,
        physicalLocation: expect.objectContaining({ artifactLocation: { uri: 'src/db.js', uriBaseId: '%SRCROOT%' } }),
      }),
    ]);
    expect(sql.codeFlows[0].threadFlows[0].locations).toHaveLength(2);
    expect(sql.partialFingerprints.primaryLocationLineHash).toBe('5c5a9a0a2b3c7d11:1');
    expect(JSON.stringify(runs)).not.toContain(repo.root);
  });

  test('run with output.sarifChecks: a failed check is an alert; an incomplete validator makes the run unsuccessful', async () => {
    await repo.write(
      'tollgate.config.yaml',
      'output:\n  sarifChecks: true\nchecks:\n  - name: unit\n    run: "false"\nstatic_analysis:\n  codeql: { enabled: false }\n  semgrep: { enabled: false }\n  eslint: { enabled: false }\n  analyzers:\n    - name: broken\n      run: "true"\n      sarif: .tollgate/none.sarif\n',
    );
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '--quiet', '-m', 'config');
    await repo.publish();
    await repo.write('src/db.js', `${DB_JS}// more\n`);
    const result = await runCli(['run', '--format', 'sarif'], { cwd: repo.root, env: repo.env });
    expect(sarifProblems(result.stdout)).toEqual([]);
    const [own] = JSON.parse(result.stdout).runs as Run[];
    expect(own!.results.map((r) => r.ruleId)).toContain('checks/unit');
    // The analyzer wrote no log: static analysis did not examine the change, and the upload says so.
    expect(own!.invocations[0]!.executionSuccessful).toBe(false);
    expect(JSON.stringify(own!.invocations[0]!.toolExecutionNotifications)).toContain('static_analysis: ');
  });

  test('scan and run upload under different categories; secret rules are security rules with self-contained help', async () => {
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6'}Qr`;
    await repo.write('src/config.js', `const token = '${token}';\n`);
    const scan = await runCli(['scan', '--all', '--format', 'sarif'], { cwd: repo.root, env: repo.env });
    expect(sarifProblems(scan.stdout)).toEqual([]);
    const [scanRun] = JSON.parse(scan.stdout).runs as Run[];
    expect(scanRun!.automationDetails.id).toBe('tollgate/scan/all/');
    const rule = scanRun!.tool.driver.rules[0]!;
    expect(rule.properties.tags).toContain('security');
    expect(rule.properties['security-severity']).toMatch(/^\d+\.\d$/);
    expect(rule.help.text).toMatch(/rotate/);
    expect(rule.help.markdown).toMatch(/rotate/);
    expect(scanRun!.invocations[0]!.executionSuccessful).toBe(true);
    const run = await runCli(['run', '--format', 'sarif', '--output', 'out.sarif'], { cwd: repo.root, env: repo.env });
    const runIds = (JSON.parse(readFileSync(join(repo.root, 'out.sarif'), 'utf8')).runs as Run[]).map((r) =>
      r.automationDetails.id.replace(/[^/]+$/, ''),
    );
    expect(run.stderr).not.toContain('Error');
    expect(runIds).not.toContain('tollgate/scan/all/');
  });
});
