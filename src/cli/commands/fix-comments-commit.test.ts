import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createScenario, type Scenario } from '../../../test/fakes/github/scenario.js';
import { addThread, comment, mutationsOf } from '../../../test/fakes/github/world.js';
import { registerComments } from './comments.js';
import { registerFixComments } from './fix-comments.js';

/**
 * `fix-comments --commit --push`: the fixes each valid item names are committed, one commit per group of threads that
 * share a file, and pushed to the PR head, behind the branch and work-tree checks. Real git (the push goes to a bare
 * repository set as origin's push URL) and real GraphQL against the fake GitHub.
 */
let scenario: Scenario;
let output: string;
let bare: string;

beforeEach(async () => {
  scenario = await createScenario();
  output = '';
  await scenario.repo.git('switch', '--quiet', '-c', 'feature');
  bare = join(scenario.repo.home, 'origin.git');
  execFileSync('git', ['init', '--quiet', '--bare', bare], { env: scenario.repo.env });
  await scenario.repo.git('config', 'remote.origin.pushurl', bare);
  scenario.pr.headRefOid = (await scenario.repo.git('rev-parse', 'HEAD')).trim();
});
afterEach(async () => {
  await scenario.cleanup();
  process.exitCode = undefined;
});

async function tollgate(...argv: string[]): Promise<number> {
  const program = new Command('tollgate').exitOverride();
  const io = () => ({
    cwd: scenario.repo.root,
    env: scenario.repo.env,
    write: (text: string) => {
      output += text;
    },
    connect: () => scenario.connect(),
  });
  registerComments(program, io);
  registerFixComments(program, io);
  process.exitCode = undefined;
  await program.parseAsync(argv, { from: 'user' });
  return Number(process.exitCode ?? 0);
}

/** Three valid threads: two fixed in src/index.ts, one in src/util.ts; the fixes are in the work tree. */
async function threeFixedThreads(): Promise<string[]> {
  const ids = ['Off by one.', 'Missing export.', 'Name it.'].map(
    (body) => addThread(scenario.pr, { path: 'src/index.ts', line: 1, comments: [comment({ body })] }).id,
  );
  expect(await tollgate('comments', '--pr', '7')).toBe(0);
  const files = [['src/index.ts'], ['src/index.ts'], ['src/util.ts']];
  await writeFile(
    join(scenario.repo.root, '.git', 'fix.json'),
    JSON.stringify({
      prNumber: 7,
      items: ids.map((threadId, index) => ({
        threadId,
        classification: 'valid',
        fixSummary: `Fix number ${index + 1}.`,
        verification: ['npm test: passed'],
        checksRun: [],
        files: files[index],
        resolveRequested: true,
      })),
    }),
  );
  await scenario.repo.write('src/index.ts', 'export const fixed = 1;\n');
  await scenario.repo.write('src/util.ts', 'export const util = 2;\n');
  output = '';
  return ids;
}

const payload = ['--payload', '.git/fix.json'];
const log = async (ref = 'HEAD') => (await scenario.repo.git('log', '--format=%s', ref)).trim().split('\n');

describe('tollgate fix-comments --commit --push', () => {
  test('one commit per thread group, each naming its threads, pushed to the PR head; then the replies', async () => {
    const [a, b, c] = await threeFixedThreads();
    // The replies go out; the resolutions wait for checks on the new head (exit 1: blocked).
    expect(await tollgate('fix-comments', ...payload, '--apply-replies', '--commit', '--push')).toBe(1);
    expect(output).toContain(
      'is not in the PR head of the last scan; push it, let its checks pass, then run `tollgate comments` and rerun',
    );
    expect(await log()).toEqual([
      `Address review thread ${c} (PR #7)`,
      `Address review threads ${a}, ${b} (PR #7)`,
      'initial',
    ]);
    const body = await scenario.repo.git('log', '-1', '--skip=1', '--format=%b');
    expect(body).toContain(`- ${a}: Fix number 1.`);
    expect(await scenario.repo.git('status', '--porcelain')).toBe('');
    const pushed = execFileSync('git', ['--git-dir', bare, 'rev-parse', 'refs/heads/feature'], { encoding: 'utf8' });
    expect(pushed.trim()).toBe((await scenario.repo.git('rev-parse', 'HEAD')).trim());
    expect(output).toContain('pushed to origin feature');
    expect(output).toMatch(new RegExp(`commit [0-9a-f]{12}  ${a}, ${b}  \\(src/index.ts\\)`));
    expect(mutationsOf(scenario.world).map((m) => m.name)).toEqual(Array(3).fill('TollgateAddReviewThreadReply'));
  });

  test('a change no item names: refused before anything is applied, with the command that clears it', async () => {
    await threeFixedThreads();
    await scenario.repo.write('README.md', 'stray\n');
    await expect(tollgate('fix-comments', ...payload, '--apply', '--commit', '--push')).rejects.toThrow(
      /^fix-comments --commit --push: the work tree has changes no item of .* lists in files \(README.md\); nothing committed, pushed or posted\. Commit or stash them first: git stash push --include-untracked -- README.md$/,
    );
    expect(await log()).toEqual(['initial']);
    expect(mutationsOf(scenario.world)).toEqual([]);
  });

  test('staged changes are refused: they would ride along in the first commit', async () => {
    await threeFixedThreads();
    await scenario.repo.git('add', 'src/util.ts');
    await expect(tollgate('fix-comments', ...payload, '--apply', '--commit')).rejects.toThrow(
      'changes are already staged (src/util.ts); nothing committed, pushed or posted. Commit them yourself or unstage them first: git restore --staged -- src/util.ts',
    );
    expect(await log()).toEqual(['initial']);
  });

  test('the default branch is refused, naming a topic branch to use', async () => {
    await threeFixedThreads();
    scenario.world.defaultBranch = 'feature';
    await expect(tollgate('fix-comments', ...payload, '--apply', '--commit', '--push')).rejects.toThrow(
      'feature is the default branch of acme/widgets; nothing committed, pushed or posted. Commit the fixes on a topic branch and open a pull request: git switch -c review-fixes-7',
    );
    expect(mutationsOf(scenario.world)).toEqual([]);
  });

  test("a branch protection rule or a ruleset that stops pushes is refused; GitHub's data is read", async () => {
    await threeFixedThreads();
    scenario.world.branchProtection.feature = 'feat*';
    await expect(tollgate('fix-comments', ...payload, '--apply', '--commit', '--push')).rejects.toThrow(
      'feature is protected on GitHub (branch protection rule "feat*")',
    );
    delete scenario.world.branchProtection.feature;
    scenario.world.rulesets.feature = ['NON_FAST_FORWARD', 'PULL_REQUEST'];
    await expect(tollgate('fix-comments', ...payload, '--apply', '--commit', '--push')).rejects.toThrow(
      'feature is protected on GitHub (ruleset rule pull_request)',
    );
    expect(scenario.world.operations.map((o) => o.name)).toContain('TollgateBranchProtection');
    expect(await log()).toEqual(['initial']);
  });

  test('another branch than the PR head is refused, naming the switch', async () => {
    await threeFixedThreads();
    await scenario.repo.git('switch', '--quiet', '-c', 'other');
    await expect(tollgate('fix-comments', ...payload, '--apply', '--commit')).rejects.toThrow(
      'the checked-out branch other is not feature, the head of acme/widgets#7; nothing committed, pushed or posted. Switch first: git switch feature',
    );
  });

  test('--push needs --commit, and --commit needs an --apply flag', async () => {
    await threeFixedThreads();
    await expect(tollgate('fix-comments', ...payload, '--apply', '--push')).rejects.toThrow('--push sends the commits');
    await expect(tollgate('fix-comments', ...payload, '--commit')).rejects.toThrow(
      '--commit: a dry run changes nothing',
    );
  });
});
