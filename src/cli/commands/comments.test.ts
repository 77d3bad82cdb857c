import { readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createScenario, type Scenario } from '../../../test/fakes/github/scenario.js';
import { addThread, comment, mutationsOf } from '../../../test/fakes/github/world.js';
import { runInProcess } from '../../../test/support/in-process-cli.js';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { registerComments } from './comments.js';
import { registerFixComments } from './fix-comments.js';

const fakeGhDir = fileURLToPath(new URL('../../../test/fakes/github/bin', import.meta.url));

let scenario: Scenario;
let output: string;
let ghLog: string;
let ghLogDir: string;
beforeEach(async () => {
  scenario = await createScenario();
  output = '';
  ghLogDir = await tempDir('tollgate-gh-log-');
  ghLog = join(ghLogDir, 'argv.jsonl');
});
afterEach(async () => {
  await scenario.cleanup();
  await removeDir(ghLogDir);
  process.exitCode = undefined;
});

async function tollgate(...argv: string[]): Promise<number> {
  const env = {
    ...scenario.repo.env,
    PATH: `${fakeGhDir}${delimiter}${scenario.repo.env.PATH ?? ''}`,
    FAKE_GH_GRAPHQL_URL: scenario.server.url,
    FAKE_GH_LOG: ghLog,
    GH_TOKEN: '',
    GITHUB_TOKEN: '',
  };
  const run = await runInProcess(argv, {
    register: [registerComments, registerFixComments],
    cwd: scenario.repo.root,
    env,
  });
  output += run.output;
  return run.exitCode;
}

describe('tollgate comments and fix-comments through a fake gh on PATH', () => {
  test('list, triage-free dry run, apply: the reply body never appears on a gh command line', async () => {
    const thread = addThread(scenario.pr, {
      path: 'src/index.ts',
      line: 2,
      comments: [comment({ body: 'Off by one.' })],
    });
    expect(await tollgate('comments', '--pr', '7')).toBe(0);
    expect(output).toContain(`${thread.id}  src/index.ts:2  @alice  1 comment`);
    await writeFile(
      join(scenario.repo.root, 'fix.json'),
      JSON.stringify({
        prNumber: 7,
        items: [
          {
            threadId: thread.id,
            classification: 'invalid',
            fixSummary: 'The bound is inclusive by design.',
            verification: [],
            checksRun: [],
            resolveRequested: false,
          },
        ],
      }),
    );
    output = '';
    expect(await tollgate('fix-comments', '--payload', 'fix.json')).toBe(0);
    expect(output).toContain('reply: would post');
    expect(mutationsOf(scenario.world)).toEqual([]);
    output = '';
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply-replies')).toBe(0);
    expect(output).toMatch(/reply: posted PRRC_/);
    expect(mutationsOf(scenario.world).map((m) => m.name)).toEqual(['TollgateAddReviewThreadReply']);
    const argvLog = await readFile(ghLog, 'utf8');
    expect(argvLog).toContain('["api","graphql","--include","--input","-"]');
    expect(argvLog).not.toContain('inclusive by design');
  });

  test('flags are validated with one-line messages', async () => {
    await expect(tollgate('comments', '--max-threads', '0')).rejects.toThrow(
      '--max-threads: Too small: expected number to be >=1; got "0"',
    );
    await expect(tollgate('fix-comments', '--payload', 'fix.json', '--dry-run', '--apply')).rejects.toThrow(
      '--dry-run: cannot be combined with --apply, --apply-replies or --apply-resolutions',
    );
  });
});
