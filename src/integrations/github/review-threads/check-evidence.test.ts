import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defaultGateOptions } from '../../../../test/support/gate-options.js';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { registriesWith } from '../../../../test/support/registries.js';
import { parseConfigText } from '../../../core/config/load.js';
import { defineTool } from '../../../core/pipeline/tool.js';
import { result } from '../../../core/result.js';
import { changeSetForRun } from '../../../core/run/change-set-for-run.js';
import { runGate } from '../../../core/run/run-gate.js';
import { recordRunVerdict } from '../../../core/state/results-store.js';
import { createRunEvidence } from './check-evidence.js';

let repo: TempRepo;
afterEach(async () => {
  await repo.cleanup();
});

const config = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith([]) }).config;

async function record(verdict: 'passed' | 'failed', complete = true) {
  const changeSet = await changeSetForRun(repo.root, config);
  await recordRunVerdict(repo.root, {
    runId: `run-${verdict}`,
    fingerprint: changeSet.fingerprint,
    configHash: 'h',
    tools: ['checks'],
    verdict,
    complete,
  });
}

describe('check evidence from the last tollgate run on the pushed commit', () => {
  test.each([
    ['a passed complete run counts', 'passed', true, 'passed'],
    ['a failed run blocks', 'failed', true, 'failed'],
    ['a partial run blocks', 'passed', false, 'incomplete'],
  ] as const)('%s', async (_name, verdict, complete, status) => {
    repo = await createTempRepo({ files: { 'a.txt': 'a\n' } });
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    await record(verdict, complete);
    const evidence = createRunEvidence({ repoRoot: repo.root, config, env: repo.env });
    expect((await evidence.forHead(head)).status).toBe(status);
  });

  test('no run, another HEAD, or a dirty tree: no evidence', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'a\n' } });
    const first = (await repo.git('rev-parse', 'HEAD')).trim();
    const evidence = () => createRunEvidence({ repoRoot: repo.root, config, env: repo.env });
    expect(await evidence().forHead(first)).toMatchObject({ status: 'missing' });
    await repo.write('a.txt', 'b\n');
    expect(await evidence().forHead(first)).toMatchObject({ status: 'not_head' });
    const second = await repo.commit('second');
    expect(await evidence().forHead(first)).toMatchObject({
      status: 'not_head',
      detail: `the local HEAD ${second.slice(0, 12)} is not the pushed PR head ${first.slice(0, 12)}; check out the pushed commit and run \`tollgate run\``,
    });
    expect(await evidence().commitInHead(first, second)).toBe('yes');
    expect(await evidence().commitInHead(second, first)).toBe('no');
    expect(await evidence().commitInHead('0123456789abcdef', second)).toBe('unknown');
  });

  test('a real run of the pushed commit is found: the evidence builds its change set as runs do', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'a\n' } });
    const tools = [
      defineTool({
        name: 'ok',
        title: 'OK',
        description: 'test',
        configKey: 'ok',
        optionsSchema: z.object({}).prefault({}),
        inputSchema: z.object({}).strict(),
        permissions: [],
        enabledByDefault: true,
        readsHistory: true,
        run: async () => result('passed', 'fine'),
      }),
    ];
    const options = defaultGateOptions(repo.root, tools);
    const run = () => runGate({ ...options, force: true });
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const report = await run();
    expect(report.verdict).toBe('passed');
    const evidence = createRunEvidence({ repoRoot: repo.root, config: options.config, env: repo.env });
    expect(await evidence.forHead(head)).toMatchObject({ status: 'passed', runId: report.runId });
  });
});
