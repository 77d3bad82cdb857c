import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fakeRegistry, lintTool, reviewTool } from '../../../test/fakes/fake-validators.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { parseConfigText } from '../config/load.js';
import { readState } from '../state/index.js';
import { readGateStatus } from './gate-status.js';
import { runParallelValidation } from './parallel-validation.js';
import { readSession, updateSession } from './session-store.js';
import { readStoredReport } from './stored-report.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(async () => {
  await repo.cleanup();
});

function validate(input: unknown, configText = '', sessionId = 's1', signal?: AbortSignal) {
  const loaded = parseConfigText({ text: configText, file: null, env: {}, registries: registriesWith(fakeRegistry) });
  return runParallelValidation({
    repoRoot: repo.root,
    config: loaded.config,
    configHash: loaded.hash,
    registry: fakeRegistry,
    active: fakeRegistry,
    input,
    sessionId,
    version: 'test',
    env: repo.env,
    ...(signal ? { signal } : {}),
  });
}

describe('parallel_validation', () => {
  test('no changes: answers at once and runs nothing', async () => {
    const outcome = await validate({});
    expect(outcome.status).toBe('skipped_no_changes');
    expect(outcome.text).toBe(
      '## Validation Results\n\nNo changes detected. Skipping validation.\n\n---\nValidation passed. The change may be declared done.\n',
    );
  });

  test('runs every tool on one snapshot and reports one section per tool', async () => {
    await repo.write('src/a.ts', 'TODO: tidy\n');
    const outcome = await validate({ prTitle: 'Add a' });
    expect(outcome.status).toBe('failed');
    expect(outcome.tools.map((tool) => [tool.name, tool.status])).toEqual([
      ['code_review', 'passed'],
      ['lint', 'failed'],
    ]);
    expect(outcome.tools[0]!.summary).toBe('reviewed "Add a"');
    expect(outcome.text).toContain('### Lint (`lint`): FAILED');
    expect(outcome.text).toMatch(
      /- \*\*low\*\* `src\/a\.ts:1` TODO marker left in the change · `lint` · id `[0-9a-f]+`/,
    );
    expect(outcome.text.trimEnd().split('\n').at(-1)).toMatch(
      /^Fix 1 finding\(s\): `[0-9a-f]{16}` \(TODO marker left in the change at src\/a\.ts:1\)\. Then call `parallel_validation` again after your changes\. To accept a low-risk finding instead, run `tollgate waive ID --reason "…"`\.$/,
    );
    // Persisted for the stop hook.
    const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(fakeRegistry) });
    const status = await readGateStatus({
      repoRoot: repo.root,
      config: loaded.config,
      configHash: loaded.hash,
      tools: fakeRegistry,
    });
    expect(status.state).toBe('failed');
    expect(status.unresolvedFindings).toBe(1);
  });

  test('a passing run makes the gate validated and writes telemetry', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const outcome = await validate({ trivialChangeDeclaration: { lint: { isTrivial: true, reason: 'one word' } } });
    expect(outcome.status).toBe('passed');
    const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(fakeRegistry) });
    const status = await readGateStatus({
      repoRoot: repo.root,
      config: loaded.config,
      configHash: loaded.hash,
      tools: fakeRegistry,
    });
    expect(status.state).toBe('validated');
    const lines = (await readFile(join(repo.root, '.tollgate/runs', outcome.runId!, 'telemetry.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.tool === 'lint')).toMatchObject({
      success: true,
      timedOut: false,
      alertCount: 0,
      trivialDeclared: true,
      disagreement: false,
      skipReason: null,
    });
    expect(lines.at(-1)).toMatchObject({ type: 'validation.call', call: 'parallel_validation', status: 'passed' });
  });

  test.each([
    [
      { trivialChangeDeclaration: { codeReview: { isTrivial: 'yes', reason: 'x' } } },
      'parallel_validation input trivialChangeDeclaration.codeReview.isTrivial: Invalid input: expected boolean, received string',
    ],
    [
      { trivialChangeDeclaration: { secrets: { isTrivial: true, reason: 'x' } } },
      'parallel_validation input trivialChangeDeclaration: Unrecognized key: "secrets" (declaration keys: codeReview, lint)',
    ],
    [{ prTitel: 'typo' }, 'parallel_validation input (input): Unrecognized key: "prTitel"'],
  ])('invalid input %j names the field', async (input, summary) => {
    const outcome = await validate(input);
    expect(outcome.status).toBe('invalid_input');
    expect(outcome.summary).toBe(summary);
  });

  test('all tools skip-enabled and declared trivial: skipped_trivial, and the gate counts it', async () => {
    await repo.write('docs/x.md', 'typo fix\n');
    const declared = { isTrivial: true, reason: 'typo in docs' };
    const outcome = await validate(
      { trivialChangeDeclaration: { codeReview: declared, lint: declared } },
      'validation:\n  skipTrivial: [code_review, lint]\n',
    );
    expect(outcome.status).toBe('skipped_trivial');
    expect(outcome.text).toContain('Skipped: all changes are trivial.');
    expect(outcome.tools.every((tool) => tool.status === 'skipped_trivial')).toBe(true);
  });

  test('one tool declared trivial but not skip-enabled still runs; disagreement is recorded', async () => {
    await repo.write('src/a.ts', 'TODO\n');
    const outcome = await validate({ trivialChangeDeclaration: { lint: { isTrivial: true, reason: 'tiny' } } });
    const telemetry = (await readFile(join(repo.root, '.tollgate/runs', outcome.runId!, 'telemetry.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(telemetry.find((line) => line.tool === 'lint')).toMatchObject({ alertCount: 1, disagreement: true });
  });

  test('under 30 s of session budget left: budget_exhausted without starting tools', async () => {
    await repo.write('src/a.ts', 'x\n');
    await updateSession(repo.root, 'mcp-s1', (session) => {
      session.budgetUsedMs = 600_000 - 29_000;
    });
    const outcome = await validate({});
    expect(outcome.status).toBe('budget_exhausted');
    expect(outcome.tools).toEqual([]);
    expect(outcome.summary).toBe(
      "Only 29s of this session's validation budget (`validation.timeout`, 10m) is left, under the 30s needed to start; no validator was run. Do not call `parallel_validation` again in this session.",
    );
    expect((await readState(repo.root)).runs).toEqual([]);
  });

  test('circuit breaker: after 2 timed-out calls in a row the third is refused', async () => {
    await repo.write('src/a.ts', 'SLOW\n');
    expect((await validate({})).status).toBe('timeout');
    expect(readSession(repo.root, 'mcp-s1').consecutiveTimeouts).toBe(1);
    const second = await validate({});
    expect(second.text).toContain('Do not call `parallel_validation` again for this change');
    const third = await validate({});
    expect(third.status).toBe('timeout');
    expect(third.runId).toBeNull();
    expect(third.summary).toBe(
      'Validation timed out 2 times in a row in this session. Do not call `parallel_validation` again in this session: split the change, or raise `validation.timeout` and start a new session.',
    );
    // Another session is not affected.
    expect((await validate({}, '', 's2')).runId).not.toBeNull();
  });

  test('a call the client cancelled is incomplete and leaves the circuit breaker as it was', async () => {
    await repo.write('src/a.ts', 'SLOW\n');
    expect((await validate({})).status).toBe('timeout');
    await repo.write('src/a.ts', 'WAIT\n');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 300);
    const cancelled = await validate({}, '', 's1', controller.signal);
    expect(cancelled.status).toBe('incomplete');
    expect(cancelled.summary).toBe(
      'Validation cancelled by the client before it finished; nothing was decided. Call `parallel_validation` again to validate the change.',
    );
    expect(cancelled.text).not.toContain('Validation passed');
    // Neither counted as a timeout nor as a call that finished in time.
    expect(readSession(repo.root, 'mcp-s1').consecutiveTimeouts).toBe(1);
  });

  test("stores the call's report, which `log --format html` draws", async () => {
    await repo.write('src/a.ts', 'fine\n');
    const outcome = await validate({});
    const stored = await readStoredReport(repo.root, outcome.runId!);
    expect(stored.kind).toBe('ok');
    if (stored.kind !== 'ok') return;
    expect(stored.report.runId).toBe(outcome.runId);
    expect(stored.report.files).toEqual([{ path: 'src/a.ts', status: 'added' }]);
    expect(stored.report.tools.map((tool) => tool.name).sort()).toEqual(fakeRegistry.map((tool) => tool.name).sort());
  });

  test('a crashing tool is its own error; the others still report', async () => {
    await repo.write('src/a.ts', 'TODO\n');
    const crashing = { ...reviewTool, run: async () => Promise.reject(new Error('boom')) };
    const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(fakeRegistry) });
    const outcome = await runParallelValidation({
      repoRoot: repo.root,
      config: loaded.config,
      configHash: loaded.hash,
      registry: [crashing, lintTool],
      active: [crashing, lintTool],
      input: {},
      sessionId: 's3',
      version: 'test',
    });
    expect(outcome.tools.map((tool) => [tool.name, tool.status, tool.summary])).toEqual([
      ['code_review', 'error', 'internal error in code_review: boom'],
      ['lint', 'failed', '1 TODO marker(s)'],
    ]);
  });
});
