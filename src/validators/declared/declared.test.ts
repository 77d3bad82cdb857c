import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { registriesWith } from '../../../test/support/registries.js';
import { staticChangeSet } from '../../../test/support/static-change-set.js';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { parseConfigText } from '../../core/config/load.js';
import { shownSettings } from '../../core/config/show.js';
import { discardEvents } from '../../core/pipeline/event-sink.js';
import { executeTool } from '../../core/pipeline/execute-tool.js';
import { checksTool } from '../checks/index.js';
import { declaredValidatorTools } from './index.js';

const registries = { ...registriesWith([checksTool]), declareTools: declaredValidatorTools };

/** A validator script that prints one finding per line holding TODO in the changed files it reads on stdin. */
const TODO_SCRIPT = `
const files = require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean);
const findings = [];
for (const file of files) {
  require('fs').readFileSync(file, 'utf8').split('\\n').forEach((text, i) => {
    if (text.includes('TODO')) findings.push({ rule: 'todo', severity: 'medium', file, line: i + 1, message: 'TODO left in' });
  });
}
console.log(JSON.stringify({ findings }));
process.exit(findings.length > 0 ? 1 : 0);
`;

describe('declared validators', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir('tollgate-declared-');
    writeFileSync(join(dir, 'todo.cjs'), TODO_SCRIPT);
  });
  afterEach(() => removeDir(dir));

  async function runDeclared(yaml: string, changed: Record<string, string>, budgetMs = 30_000) {
    for (const [path, text] of Object.entries(changed)) writeFileSync(join(dir, path), text);
    const loaded = parseConfigText({ text: yaml, file: 'tollgate.config.yaml', env: {}, registries });
    const tools = [checksTool, ...declaredValidatorTools(loaded.config.validators)];
    const name = Object.keys(loaded.config.validators)[0]!;
    return executeTool(
      { toolName: name },
      {
        repoRoot: dir,
        changeSet: staticChangeSet(dir, changed),
        config: loaded.config,
        tools,
        events: discardEvents,
        runDir: join(dir, '.tollgate', 'runs', 'r1'),
        deadline: Date.now() + budgetMs,
      },
    );
  }

  test('a JSON-printing command is a validator: its findings on changed files, with stable ids', async () => {
    const yaml = 'validators:\n  todo_markers:\n    run: node todo.cjs\n';
    const first = await runDeclared(yaml, { 'a.ts': 'ok\n// TODO fix\n' });
    expect(first.result.status).toBe('failed');
    expect(first.result.findings).toEqual([
      expect.objectContaining({
        validator: 'todo_markers',
        ruleId: 'todo',
        severity: 'medium',
        path: 'a.ts',
        line: 2,
        title: 'todo: TODO left in',
      }),
    ]);
    const again = await runDeclared(yaml, { 'a.ts': 'ok\n// TODO fix\n' });
    expect(again.result.findings[0]?.id).toBe(first.result.findings[0]?.id);
    expect((await runDeclared(yaml, { 'a.ts': 'fine\n' })).result.status).toBe('passed');
  });

  test('findings outside the changed files are left out', async () => {
    const yaml = `validators:\n  elsewhere:\n    run: echo '{"findings":[{"rule":"r","severity":"high","file":"other.ts","line":1,"message":"m"}]}'\n`;
    const execution = await runDeclared(yaml, { 'a.ts': 'x\n' });
    expect(execution.result).toMatchObject({ status: 'passed', findings: [] });
    expect(execution.result.summary).toContain('1 outside the changed files left out');
  });

  test.each([
    ['not JSON', 'echo hello', 'validator bad_output: invalid output: stdout is not JSON'],
    ['nothing', 'true', 'validator bad_output: invalid output: printed nothing; expected {"findings": [...]}'],
    [
      'a bad severity',
      `echo '{"findings":[{"rule":"r","severity":"urgent","message":"m"}]}'`,
      'validator bad_output: invalid output: findings[0].severity: expected one of critical, high, medium, low, info, got "urgent"',
    ],
    [
      'a missing field',
      `echo '{"findings":[{"severity":"low","message":"m"}]}'`,
      'validator bad_output: invalid output: findings[0].rule:',
    ],
    [
      'an unknown field',
      `echo '{"findings":[{"rule":"r","sev":"low","severity":"low","message":"m"}]}'`,
      'validator bad_output: invalid output: findings[0]: unknown field(s) sev',
    ],
  ])('output that is %s is an error naming the validator and the field, never a pass', async (_, run, message) => {
    const yaml = `validators:\n  bad_output:\n    run: ${JSON.stringify(run)}\n`;
    const execution = await runDeclared(yaml, { 'a.ts': 'x\n' });
    expect(execution.result.status).toBe('error');
    expect(execution.result.summary).toContain(message);
    expect(execution.result.summary).not.toContain('\n');
  });

  test('an exit code other than 0 or 1 is an error; a missing command is unavailable', async () => {
    const failing = await runDeclared('validators:\n  crashes:\n    run: echo boom >&2; exit 3\n', { 'a.ts': 'x\n' });
    expect(failing.result).toMatchObject({
      status: 'error',
      summary: 'validator crashes: `echo boom >&2; exit 3` exited 3 (0 or 1 expected): boom',
    });
    const missing = await runDeclared('validators:\n  absent:\n    run: no-such-validator-cmd\n', { 'a.ts': 'x\n' });
    expect(missing.result.status).toBe('tool_unavailable');
  });

  test('a timeout is a timeout, never a pass', async () => {
    const execution = await runDeclared('validators:\n  slow:\n    run: sleep 30\n    timeout: 300ms\n', {
      'a.ts': 'x\n',
    });
    expect(execution.result.status).toBe('timeout');
    expect(execution.result.summary).toContain('validators.slow.timeout');
  });

  test('SARIF output goes through the SARIF reader', async () => {
    const sarif = {
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'Mini', rules: [{ id: 'mini/rule' }] } },
          results: [
            {
              ruleId: 'mini/rule',
              level: 'error',
              message: { text: 'bad thing' },
              locations: [{ physicalLocation: { artifactLocation: { uri: 'a.ts' }, region: { startLine: 1 } } }],
            },
          ],
        },
      ],
    };
    writeFileSync(join(dir, 'out.sarif'), JSON.stringify(sarif));
    const execution = await runDeclared('validators:\n  mini:\n    run: cat out.sarif\n    format: sarif\n', {
      'a.ts': 'x\n',
    });
    expect(execution.result.status).toBe('failed');
    expect(execution.result.findings[0]).toMatchObject({ validator: 'mini', ruleId: 'mini/rule', severity: 'high' });
  });

  test('a declared validator has its switch, may be required, and may not take a built-in name', () => {
    const yaml =
      'validators:\n  todo_markers:\n    run: node todo.cjs\nvalidation:\n  required: [todo_markers]\n  todo_markers:\n    enabled: false\n';
    const loaded = parseConfigText({ text: yaml, file: 'tollgate.config.yaml', env: {}, registries });
    expect(loaded.config.validation.required).toEqual(['todo_markers']);
    expect(loaded.config.validation.todo_markers).toEqual({ enabled: false });
    expect(
      shownSettings(loaded, registries).find((setting) => setting.key === 'validation.todo_markers.enabled'),
    ).toMatchObject({ value: false, source: 'file' });
    const switched = parseConfigText({ text: yaml, file: 'x', env: { TOLLGATE_USE_TODO_MARKERS: '1' }, registries });
    expect(switched.config.validation.todo_markers).toEqual({ enabled: true });
    expect(() =>
      parseConfigText({
        text: 'validators:\n  checks:\n    run: "true"\n',
        file: 'tollgate.config.yaml',
        env: {},
        registries,
      }),
    ).toThrow(/tollgate.config.yaml:3:5 validators.checks: "checks" is taken by tollgate/);
    expect(() =>
      parseConfigText({
        text: 'validators:\n  Bad-Name:\n    run: "true"\n',
        file: 'tollgate.config.yaml',
        env: {},
        registries,
      }),
    ).toThrow(/validators.Bad-Name: key "Bad-Name": expected a string matching/);
  });
});
