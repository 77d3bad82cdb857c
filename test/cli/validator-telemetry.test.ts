import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type FakeAgents, helpFileOf, setupFakeAgents } from '../fakes/fake-agents.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * Telemetry through the built CLI: a run with the fake `gemini` reviewing and the fake `codeql` analyzing writes
 * per-tool records that name the reviewing CLI's version and model and the CodeQL version and its overlay database,
 * and `tollgate stats` shows them. Nothing of the user's home reaches the records.
 */
const FAKE_CODEQL_DIR = join(import.meta.dirname, '../fixtures/sarif/fake-codeql');
const SARIF_DIR = join(import.meta.dirname, '../fixtures/sarif/codeql/2.21');
const CONFIG = [
  'validation:',
  '  secrets: { enabled: false }',
  '  advisories: { enabled: false }',
  '  checks: { enabled: false }',
  '  code_review: { enabled: true }',
  'code_review:',
  '  cliPreference: [gemini]',
  '  adapters:',
  '    gemini: { model: gemini-2.5-pro }',
  'static_analysis:',
  '  semgrep: { enabled: false }',
  '  eslint: { enabled: false }',
  '',
].join('\n');
const REVIEW = JSON.stringify({ status: 'pass', findings: [] });

let repo: TempRepo;
let fakes: FakeAgents;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'src/db.js': 'exports.a = 1;\n' } });
  await repo.publish();
  await repo.write('src/db.js', 'exports.a = 2;\n');
  fakes = await setupFakeAgents(
    {
      gemini: {
        helpFile: helpFileOf('gemini'),
        version: '0.9.1',
        reviews: [{ stdout: `${JSON.stringify({ session_id: 's', response: REVIEW, stats: {} })}\n`, exit: 0 }],
      },
    },
    repo.env,
  );
});
afterAll(async () => {
  await fakes.cleanup();
  await repo.cleanup();
});

test('a run records the reviewer CLI version and model, the CodeQL version and overlay use; stats shows them', async () => {
  const env = {
    ...fakes.env,
    PATH: `${FAKE_CODEQL_DIR}:${fakes.env.PATH}`,
    FAKE_CODEQL_VERSION: '2.24.0',
    FAKE_CODEQL_SARIF_DIR: SARIF_DIR,
    XDG_CACHE_HOME: join(repo.home, 'xdg-cache'),
  };
  const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env, timeoutMs: 120_000 });
  const runsDir = join(repo.root, '.tollgate', 'runs');
  const [runId] = readdirSync(runsDir);
  const text = readFileSync(join(runsDir, runId!, 'telemetry.jsonl'), 'utf8');
  const records = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const review = records.find((record) => record.tool === 'code_review');
  const analysis = records.find((record) => record.tool === 'static_analysis');
  expect(review, `${run.stdout}\n${run.stderr}`).toMatchObject({
    reviewers: [{ cli: 'gemini', cliVersion: '0.9.1', model: 'gemini-2.5-pro' }],
  });
  expect(analysis, `${run.stdout}\n${run.stderr}`).toMatchObject({ codeql: { version: '2.24.0', overlay: true } });
  expect(text).not.toContain(repo.home);

  const stats = await runCli(['stats'], { cwd: repo.root, env });
  expect(stats.exitCode, stats.stderr).toBe(0);
  expect(stats.stdout).toContain('  reviewers: gemini 0.9.1 with gemini-2.5-pro 1 time(s)');
  expect(stats.stdout).toContain('  codeql 2.24.0: 1 call(s), 1 on an overlay database');
}, 180_000);
