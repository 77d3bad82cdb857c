import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FAILING_CHECK_CONFIG } from '../../../test/support/failing-check.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { loadConfig } from '../../core/config/load.js';
import { runGate } from '../../core/run/run-gate.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { validators } from '../../validators/index.js';
import { runStopHook } from './stop.js';

/**
 * After a complete run and then the failing validator alone (`parallel_validation`, then `checks`), both runs hold the
 * same finding: the stop hook's reason names each finding once, and its excerpt keeps the failure's location line
 * (`at: math.js:1:28`), so an agent that reads only the reason learns what failed and where.
 */
const TAP_TEST_JS = [
  "const { add } = require('./math.js');",
  "for (let i = 1; i <= 300; i++) console.log('ok ' + i + ' - adds ' + i + ' and 0');",
  'if (add(1, 2) !== 3) {',
  "  console.log('not ok 301 - add is broken');",
  "  console.log('  ---');",
  "  console.log('  operator: strictEqual');",
  "  console.log('  expected: 3');",
  "  console.log('  actual: ' + add(1, 2));",
  "  console.log('  at: math.js:1:28');",
  "  console.log('  ...');",
  '  process.exitCode = 1;',
  '}',
  "console.log('1..301');",
  '',
].join('\n');

let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({
    files: {
      'tollgate.config.yaml': FAILING_CHECK_CONFIG,
      'test.js': TAP_TEST_JS,
      'math.js': 'exports.add = (a, b) => a + b;\n',
    },
  });
  await repo.write('math.js', 'exports.add = (a, b) => a - b;\n');
  await repo.write('deploy.env', `GITHUB_TOKEN=${fakeChecksumToken('ghp_', 'stop-reason-findings')}\n`);
});
afterAll(() => repo.cleanup());

async function run(only: string[] = []) {
  const loaded = await loadConfig({ repoRoot: repo.root, cwd: repo.root, env: repo.env, tools: validators });
  return runGate({
    repoRoot: repo.root,
    config: loaded.config,
    configHash: loaded.hash,
    tools: validators,
    command: 'tollgate run',
    version: 'test',
    env: repo.env,
    only,
  });
}

test('a finding of two runs of the change is named once, and the excerpt says where the failure is', async () => {
  const complete = await run();
  expect(complete.verdict).toBe('failed');
  expect((await run(['checks'])).verdict).toBe('failed');

  const payload = (await readFile(new URL('../../../test/fixtures/hooks/claude/stop.json', import.meta.url)))
    .toString('utf8')
    .replaceAll('__REPO__', repo.root);
  const answer = await runStopHook({
    stdin: Readable.from([Buffer.from(payload)]),
    env: repo.env,
    cwd: repo.root,
    registry: validators,
    agent: 'claude',
    warn: () => {},
  });
  expect(answer.decision).toBe('block');
  const reason = (JSON.parse(answer.stdout) as { reason: string }).reason;

  const ids = [...reason.matchAll(/\(id ([^)]+)\)/g)].map((match) => match[1]);
  expect(ids).toHaveLength(2); // the failed check and the secret, each once
  expect(new Set(ids).size).toBe(ids.length);
  expect(reason).not.toMatch(/\d+ more;/);
  expect(reason).toContain('not ok 301 - add is broken');
  expect(reason).toContain('    not ok 301 - add is broken\n');
  expect(reason).toContain('      at: math.js:1:28');
});
