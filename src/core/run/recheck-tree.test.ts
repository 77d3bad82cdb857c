import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { defaultGateOptions } from '../../../test/support/gate-options.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { testTool } from '../../../test/support/test-tool.js';
import { parseConfigText } from '../config/load.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import type { ToolStatus } from '../result.js';
import { result } from '../result.js';
import { changeSetForRun } from './change-set-for-run.js';
import { readGateStatus } from './gate-status.js';
import { recheckTree } from './recheck-tree.js';
import { runGate } from './run-gate.js';

let repo: TempRepo;
afterEach(() => repo?.cleanup());

/** A validator that deletes a changed file while it runs (as a check running `rm` would), then passes. */
function deletingTool(path: string, afterDeleting?: () => void) {
  return testTool('deleter', async (ctx) => {
    await rm(join(ctx.repoRoot, path));
    afterDeleting?.();
    return result('passed', 'looked fine');
  });
}

/**
 * A validator that reads only the snapshot (it says so at once) and passes only once `deleted` resolves: while it
 * runs, the check of the tree may begin, but not before the validator that reads the work tree has settled.
 */
function snapshotTool(deleted: Promise<void>) {
  return testTool('snapshot', async (ctx) => {
    ctx.doneWithWorkTree?.();
    await deleted;
    return result('passed', 'scanned the snapshot');
  });
}

describe('a tree that changes during the run', () => {
  test('a check that deletes a file after the snapshot scan said it was done with the tree is still seen', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('tokens.txt', 'something to scan\n');
    let markDeleted = () => {};
    const deleted = new Promise<void>((resolve) => {
      markDeleted = resolve;
    });
    const report = await runGate(
      defaultGateOptions(repo.root, [snapshotTool(deleted), deletingTool('tokens.txt', () => markDeleted())]),
    );
    expect(report.verdict).toBe('failed');
    expect(report.tools.map((tool) => [tool.name, tool.status])).toEqual([
      ['snapshot', 'incomplete'],
      ['deleter', 'incomplete'],
    ]);
  });

  test('stores no pass: the run is incomplete, names the file, and the gate stays closed when the file comes back', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('tokens.txt', 'something to scan\n');
    const options = defaultGateOptions(repo.root, [deletingTool('tokens.txt')]);
    const report = await runGate(options);
    expect(report.verdict).toBe('failed');
    expect(report.tools[0]).toMatchObject({ status: 'incomplete' });
    expect(report.tools[0]!.summary).toContain('tokens.txt');
    await writeFile(join(repo.root, 'tokens.txt'), 'something to scan\n');
    const status = await readGateStatus(options);
    expect(status.state).not.toBe('validated');
  });
});

describe('recheckTree', () => {
  const config = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith([]) }).config;
  const execution = (toolName: string, status: ToolStatus): ToolExecution => ({
    toolCallId: toolName,
    toolName,
    title: toolName,
    result: result(status, `${toolName} said so`, [], { kept: true }),
    durationMs: 1,
    additionalContext: [],
    scope: null,
  });
  const snapshot = async () => {
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    return { base, changeSet: await changeSetForRun(repo.root, config, base) };
  };
  const summaries = (outcome: { executions: ToolExecution[] }) =>
    outcome.executions.map((done) => [done.toolName, done.result.status, done.result.summary]);

  test('an unchanged tree: passes stand, and nothing is named', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('a.txt', 'a\n');
    const { base, changeSet } = await snapshot();
    const executions = [execution('one', 'passed'), execution('two', 'failed')];
    const outcome = await recheckTree(repo.root, config, changeSet, executions, base);
    expect(outcome).toEqual({ executions, changed: null });
    expect(outcome.executions).not.toBe(executions);
  });

  test('a file that changes size, appears or vanishes: every pass becomes incomplete naming them; a failure stays', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('a.txt', 'a\n');
    await repo.write('b.txt', 'b\n');
    await repo.write('same.txt', 'same\n');
    const { base, changeSet } = await snapshot();
    await repo.write('a.txt', 'a longer line\n');
    await repo.remove('b.txt');
    await repo.write('c.txt', 'new\n');
    const executions = [
      execution('one', 'passed'),
      execution('two', 'failed'),
      execution('three', 'skipped_no_changes'),
    ];
    const outcome = await recheckTree(repo.root, config, changeSet, executions, base);
    expect(outcome.changed).toEqual(['a.txt', 'b.txt', 'c.txt']);
    const summary =
      "the files changed while tollgate ran (a.txt, b.txt, c.txt), so this result is not of the tree as it is now; run again once nothing else writes to the tree (if a check writes these files, list them in .gitignore or the config's `ignore`)";
    expect(summaries(outcome)).toEqual([
      ['one', 'incomplete', summary],
      ['two', 'failed', 'two said so'],
      ['three', 'incomplete', summary],
    ]);
    expect(outcome.executions[0]!.result.details).toEqual({ kept: true });
    expect(outcome.executions[1]).toBe(executions[1]);
  });

  test('one validator skipped does not spare the others the recheck; all skipped does', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('a.txt', 'a\n');
    const { base, changeSet } = await snapshot();
    await repo.write('a.txt', 'a, edited\n');
    const mixed = await recheckTree(
      repo.root,
      config,
      changeSet,
      [execution('one', 'skipped_no_changes'), execution('two', 'passed')],
      base,
    );
    expect(mixed.changed).toEqual(['a.txt']);
    expect(summaries(mixed).map(([, status]) => status)).toEqual(['incomplete', 'incomplete']);
    const allSkipped = [execution('one', 'skipped_no_changes'), execution('two', 'skipped_trivial')];
    expect(await recheckTree(repo.root, config, changeSet, allSkipped, base)).toEqual({
      executions: allSkipped,
      changed: null,
    });
  });

  test('nothing to validate before the run: nothing is rechecked', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    const { base, changeSet } = await snapshot();
    expect(changeSet.isEmpty).toBe(true);
    await repo.write('a.txt', 'a\n');
    const executions = [execution('one', 'passed')];
    expect(await recheckTree(repo.root, config, changeSet, executions, base)).toEqual({ executions, changed: null });
  });

  test('an edit of the same size says "file contents"; a commit says "HEAD moved"; more than 10 files are cut', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    await repo.write('a.txt', 'aaaa\n');
    let { base, changeSet } = await snapshot();
    await repo.write('a.txt', 'bbbb\n');
    let outcome = await recheckTree(repo.root, config, changeSet, [execution('one', 'passed')], base);
    expect(outcome.changed).toEqual([]);
    expect(outcome.executions[0]!.result.summary).toMatch(/^the files changed while tollgate ran \(file contents\),/);

    ({ base, changeSet } = await snapshot());
    await repo.git('commit', '--quiet', '--allow-empty', '--no-verify', '-m', 'empty');
    outcome = await recheckTree(repo.root, config, changeSet, [execution('one', 'passed')], base);
    expect(outcome.executions[0]!.result.summary).toMatch(/^the files changed while tollgate ran \(HEAD moved\),/);

    ({ base, changeSet } = await snapshot());
    for (let index = 10; index < 22; index++) await repo.write(`many/${index}.txt`, 'x\n');
    outcome = await recheckTree(repo.root, config, changeSet, [execution('one', 'passed')], base);
    expect(outcome.changed).toHaveLength(12);
    expect(outcome.executions[0]!.result.summary).toContain(
      '(many/10.txt, many/11.txt, many/12.txt, many/13.txt, many/14.txt, many/15.txt, many/16.txt, many/17.txt, many/18.txt, many/19.txt, …)',
    );
    ({ base, changeSet } = await snapshot());
    for (let index = 10; index < 20; index++) await repo.remove(`many/${index}.txt`);
    outcome = await recheckTree(repo.root, config, changeSet, [execution('one', 'passed')], base);
    expect(outcome.changed).toHaveLength(10);
    expect(outcome.executions[0]!.result.summary).toContain('many/19.txt), so');
  });
});
