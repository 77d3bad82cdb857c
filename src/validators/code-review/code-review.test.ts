import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  type FakeAgentScript,
  type FakeAgents,
  type FakeReviewStep,
  helpFileOf,
  recorded,
  setupFakeAgents,
} from '../../../test/fakes/fake-agents.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { staticChangeSet } from '../../../test/support/static-change-set.js';
import { toolContext } from '../../../test/support/tool-context.js';
import { BASE64, fakeChecksumToken, fakeToken } from '../../secrets/sample-tokens.js';
import { codeReviewTool } from './index.js';
import { codeReviewInputSchema } from './input.js';
import { codeReviewOptionsSchema } from './options.js';
import { type CodeReviewContext, runCodeReview } from './run-code-review.js';

const APP = 'export const x = 1;\nexport function average(total: number, count: number) { return total / count; }\n';
const T0 = Date.parse('2026-11-23T12:00:00Z');
const MINUTE = 60_000;

let repo: TempRepo;
let fakes: FakeAgents | undefined;

beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  await repo.write('src/app.ts', APP);
  await mkdir(join(repo.root, '.tollgate', 'runs', 'r1', 'code_review'), { recursive: true });
});
afterEach(async () => {
  await fakes?.cleanup();
  fakes = undefined;
  await repo.cleanup();
});

/** A fake whose probe answers with the CLI's recorded help, and whose reviews replay `reviews` in order. */
function fake(name: string, reviews: FakeReviewStep[], extra: Partial<FakeAgentScript> = {}): FakeAgentScript {
  return {
    helpFile: helpFileOf(name),
    ...(name === 'codex' ? { authArgs: ['login', 'status'], auth: { exit: 0 } } : {}),
    ...(name === 'claude' ? { authArgs: ['auth', 'status'], auth: { exit: 0 } } : {}),
    reviews,
    ...extra,
  };
}

function answer(findings: object[] = []): FakeReviewStep {
  const text = JSON.stringify({ status: findings.length > 0 ? 'fail' : 'pass', findings });
  return { stdout: `${JSON.stringify({ session_id: 's', response: text, stats: {} })}\n`, exit: 0 };
}

function context(
  options: Record<string, unknown>,
  input: Record<string, unknown> = {},
  extra: Partial<CodeReviewContext> = {},
): CodeReviewContext {
  const changeSet = {
    ...staticChangeSet(repo.root, { 'src/app.ts': APP }),
    diff: async () =>
      `diff --git a/src/app.ts b/src/app.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/app.ts\n@@ -0,0 +1,2 @@\n+${APP.split('\n')[0]}\n+${APP.split('\n')[1]}\n`,
  };
  return toolContext({
    repoRoot: repo.root,
    changeSet,
    options: codeReviewOptionsSchema.parse(options),
    input: codeReviewInputSchema.parse(input),
    budget: { deadline: Date.now() + 600_000, remainingMs: () => 600_000 },
    artifactsDir: join(repo.root, '.tollgate', 'runs', 'r1', 'code_review'),
    concurrency: 4,
    ...extra,
  });
}

async function unhealthy(): Promise<unknown> {
  const state = JSON.parse(await readFile(join(repo.root, '.tollgate', 'state.json'), 'utf8'));
  return state.unhealthy_adapters;
}

const HIGH = {
  path: 'src/app.ts',
  line: 2,
  severity: 'high',
  title: 'Division by zero when count is 0',
  body: 'count may be 0.',
};

test('the tool declaration: code_review, opt-in, needs spawnAgents', () => {
  expect(codeReviewTool).toMatchObject({
    name: 'code_review',
    configKey: 'code_review',
    permissions: ['spawnAgents'],
    enabledByDefault: false,
  });
  expect(codeReviewOptionsSchema.parse(undefined)).toMatchObject({ numReviews: 1, failOn: 'high', timeout: 300_000 });
});

test('round robin and cooldown: codex hits its usage limit, gemini takes both slots, codex rejoins after an hour', async () => {
  fakes = await setupFakeAgents({
    codex: fake('codex', [recorded('codex', 'usage-limit'), recorded('codex', 'pass')]),
    gemini: fake('gemini', [answer()]),
  });
  const options = { cliPreference: ['codex', 'gemini'], numReviews: 2 };
  const run = (now: number) => runCodeReview(context(options), { now: () => now, env: fakes!.env });

  // Run 1: codex@1 is lost to its usage limit, gemini@2 passes: incomplete, so not a pass.
  const first = await run(T0);
  expect(first.status).toBe('error');
  expect(first.summary).toBe(
    'review incomplete: codex@1: hit its usage limit ("You\u2019ve hit your usage limit. Upgrade to Plus to continue using Codex (https://chatgpt.com/explore/plus), or try again at 3:00 PM."); codex cools down for an hour. Completed: gemini@2. Rerun: adapters that hit a usage limit cool down for an hour and their slots go to the healthy ones.',
  );
  expect(await unhealthy()).toEqual({
    codex: { marked_at: '2026-11-23T12:00:00.000Z', reason: expect.stringContaining('usage limit') },
  });

  // Run 2, ten minutes later: codex is not even probed; gemini takes both slots and the review can pass.
  const before = fakes.calls().length;
  const second = await run(T0 + 10 * MINUTE);
  const secondCalls = fakes.calls().slice(before);
  expect(secondCalls.filter((call) => call.bin === 'codex')).toEqual([]);
  expect(second.status).toBe('passed');
  expect(second.summary).toBe('2 reviews (gemini@1, gemini@2) found nothing at or above high.');
  expect(second.details?.coolingDown).toEqual([
    { adapter: 'codex', until: '2026-11-23T13:00:00.000Z', reason: expect.stringContaining('usage limit') },
  ]);

  // Run 3, after the cooldown: codex is probed, rejoins, and its mark is cleared.
  const third = await run(T0 + 61 * MINUTE);
  expect(third.status).toBe('passed');
  expect(third.details?.rejoined).toEqual(['codex']);
  expect(third.summary).toBe('2 reviews (codex@1, gemini@2) found nothing at or above high.');
  expect(await unhealthy()).toBeUndefined();
});

test('each reviewing CLI is described once: its --version, read once however many slots, and its model', async () => {
  fakes = await setupFakeAgents({
    gemini: fake('gemini', [answer(), answer()], { version: '0.9.1' }),
  });
  const options = { cliPreference: ['gemini'], numReviews: 2, adapters: { gemini: { model: 'gemini-2.5-pro' } } };
  const outcome = await runCodeReview(context(options), { now: () => T0, env: fakes.env });
  expect(outcome.status).toBe('passed');
  expect(outcome.details?.reviewers).toEqual([{ cli: 'gemini', cliVersion: '0.9.1', model: 'gemini-2.5-pro' }]);
  expect(fakes.calls().filter((call) => call.call === 'version')).toHaveLength(1);
});

test('every adapter cooling down: errors at once, naming who and until when', async () => {
  fakes = await setupFakeAgents({ codex: fake('codex', [recorded('codex', 'usage-limit')]) });
  const options = { cliPreference: ['codex'] };
  await runCodeReview(context(options), { now: () => T0, env: fakes.env });
  const result = await runCodeReview(context(options), { now: () => T0 + 5 * MINUTE, env: fakes.env });
  expect(result.status).toBe('error');
  expect(result.summary).toMatch(
    /^no reviewer available: codex is cooling down until 2026-11-23 13:00 UTC \(You\u2019ve hit your usage limit.*\)\. Rerun after the cooldown, or add another CLI to code_review\.cliPreference\.$/,
  );
});

test('a reviewer that writes to the tree makes the review an error, whatever it answered', async () => {
  fakes = await setupFakeAgents({ gemini: fake('gemini', [{ ...answer(), writeFile: 'written-by-reviewer.txt' }]) });
  const result = await runCodeReview(context({ cliPreference: ['gemini'] }), { env: fakes.env });
  expect(result.status).toBe('error');
  expect(result.summary).toBe(
    'the working tree changed while gemini@1 reviewed it: reviewers must be read-only, so this review does not count. Check `git status`, undo what the reviewer changed, and rerun.',
  );
  expect(result.details?.treeChanged).toBe(true);
});

describe('failOn decides', () => {
  test.each([
    [
      'high',
      'failed',
      '1 finding at or above high from gemini@1 (1 below high); fix them and rerun, or waive one with a reason.',
    ],
    ['critical', 'passed', '1 review (gemini@1) found nothing at or above critical (2 below critical).'],
    ['low', 'failed', '2 findings at or above low from gemini@1; fix them and rerun, or waive one with a reason.'],
  ])('failOn: %s → %s', async (failOn, status, summary) => {
    fakes = await setupFakeAgents({ gemini: fake('gemini', [recorded('gemini', 'findings')]) });
    const result = await runCodeReview(context({ cliPreference: ['gemini'], failOn: failOn }), { env: fakes.env });
    expect(result.status).toBe(status);
    expect(result.summary).toBe(summary);
    expect(result.findings.map((finding) => [finding.severity, finding.path, finding.line, finding.sources])).toEqual([
      ['high', 'src/app.ts', 2, ['gemini']],
      ['low', 'src/app.ts', 1, ['gemini']],
    ]);
  });
});

test('findings: excluded ones are dropped and counted, outside ones shown apart and still counted, duplicates merged', async () => {
  const outside = { path: 'lib/other.ts', line: 3, severity: 'high', title: 'Unchecked null', body: '' };
  const excluded = { ...HIGH, title: 'Pre-existing style issue', severity: 'medium', exclusionReason: 'pre-existing' };
  fakes = await setupFakeAgents({
    gemini: fake('gemini', [answer([HIGH, outside, excluded])]),
    copilot: fake('copilot', [
      {
        stdout: `${JSON.stringify({ type: 'assistant.message', data: { messageId: 'm', content: JSON.stringify({ status: 'fail', findings: [{ ...HIGH, line: 3, title: 'Possible division by zero when count is 0' }] }) } })}\n`,
        exit: 0,
      },
    ]),
  });
  const result = await runCodeReview(context({ cliPreference: ['gemini', 'copilot'], numReviews: 2 }), {
    env: fakes.env,
  });
  expect(result.status).toBe('failed');
  expect(result.findings.map((finding) => [finding.title, finding.sources])).toEqual([
    ['Division by zero when count is 0', ['gemini', 'copilot']],
    ['Unchecked null', ['gemini']],
  ]);
  expect(result.details?.excluded).toBe(1);
  expect(result.details?.outsideChangeSet).toEqual([result.findings[1]!.id]);
  expect(result.summary).toBe(
    '2 findings at or above high from gemini@1, copilot@2, 1 of them outside the change set (1 excluded by the reviewers; 1 on files outside the change set); fix them and rerun, or waive one with a reason.',
  );
});

test('an answer that cannot be parsed is an error, with the raw output kept in the run folder', async () => {
  fakes = await setupFakeAgents({ gemini: fake('gemini', [recorded('gemini', 'garbage')]) });
  const result = await runCodeReview(context({ cliPreference: ['gemini'] }), { env: fakes.env });
  expect(result.status).toBe('error');
  expect(result.summary).toContain(
    'gemini@1: answer could not be parsed (no JSON object in the answer); raw output in .tollgate/runs/r1/code_review/gemini-1.stdout.txt',
  );
});

test('repairRetry asks once more for JSON only', async () => {
  fakes = await setupFakeAgents({
    gemini: fake('gemini', [recorded('gemini', 'garbage'), recorded('gemini', 'fenced')]),
  });
  const result = await runCodeReview(context({ cliPreference: ['gemini'], repairRetry: true }), { env: fakes.env });
  expect(result.status).toBe('failed');
  const reviews = fakes.calls().filter((call) => call.call === 'review');
  expect(reviews[1]!.stdin).toContain('Rewrite it as exactly one JSON object');
});

test.each([
  [
    'rate-limit',
    'rate_limited',
    'review incomplete, rate limited: gemini@1: rate limited ("Rate limit exceeded. Try again later."). This is transient: wait a minute and rerun.',
  ],
  ['usage-limit', 'error', undefined],
])('the recorded %s output → %s', async (scenario, status, summary) => {
  fakes = await setupFakeAgents({ gemini: fake('gemini', [recorded('gemini', scenario)]) });
  const result = await runCodeReview(context({ cliPreference: ['gemini'] }), { env: fakes.env, now: () => T0 });
  expect(result.status).toBe(status);
  if (summary) expect(result.summary).toBe(summary);
});

test('no CLI installed → tool_unavailable naming what to install', async () => {
  fakes = await setupFakeAgents({});
  const result = await runCodeReview(context({ cliPreference: ['codex', 'gemini'] }), { env: fakes.env });
  expect(result.status).toBe('tool_unavailable');
  expect(result.summary).toBe(
    'no AI reviewer CLI is installed (tried codex, gemini); install one, e.g. `npm install -g @openai/codex`, or turn the review off with validation.code_review.enabled: false.',
  );
});

test('installed but not logged in → tool_unavailable with the login command', async () => {
  fakes = await setupFakeAgents({ codex: fake('codex', [], { auth: { exit: 1, stderr: 'Not logged in\n' } }) });
  const result = await runCodeReview(context({ cliPreference: ['codex'] }), { env: fakes.env });
  expect(result.status).toBe('tool_unavailable');
  expect(result.summary).toBe('no reviewer available: codex: Codex CLI is not logged in; run `codex login`.');
});

test('a trivial declaration is recorded always, and skips only when validation.skipTrivial lists code_review', async () => {
  fakes = await setupFakeAgents({ gemini: fake('gemini', [answer()]) });
  const input = { trivialChangeDeclaration: { isTrivial: true, reason: 'comment typo' } };
  const ran = await runCodeReview(context({ cliPreference: ['gemini'] }, input), { env: fakes.env });
  expect(ran.status).toBe('passed');
  expect(ran.details?.trivialChangeDeclaration).toEqual({ isTrivial: true, reason: 'comment typo' });
  const skipped = await runCodeReview(context({ cliPreference: ['gemini'] }, input, { skipTrivial: true }), {
    env: fakes.env,
  });
  expect(skipped.status).toBe('skipped_trivial');
  expect(skipped.summary).toBe(
    'skipped: the change was declared trivial (comment typo) and validation.skipTrivial lists code_review',
  );
});

test('the prompt carries the PR text, the repository instructions and the diff', async () => {
  await repo.write('AGENTS.md', 'Never log secrets.\n');
  fakes = await setupFakeAgents({ gemini: fake('gemini', [answer()]) });
  await runCodeReview(
    context({ cliPreference: ['gemini'] }, { prTitle: 'Add average()', prDescription: 'Adds a helper.' }),
    { env: fakes.env },
  );
  const stdin = fakes.calls().find((call) => call.call === 'review')!.stdin;
  expect(stdin).toContain('Title: Add average()\n\nAdds a helper.');
  expect(stdin).toContain('## Repository instructions from AGENTS.md\n\nNever log secrets.');
  expect(stdin).toContain('+++ b/src/app.ts');
});

test('path-specific instructions reach the reviewer for the files they apply to, and only those', async () => {
  await repo.write(
    '.github/instructions/typescript.instructions.md',
    '---\napplyTo: "src/**/*.ts, lib/**"\n---\nUse explicit return types.\n',
  );
  await repo.write('.github/instructions/python.instructions.md', '---\napplyTo: "**/*.py"\n---\nUse type hints.\n');
  await repo.write('src/AGENTS.md', 'src/ code never throws strings.\n');
  await repo.write('docs/AGENTS.md', 'Docs are British English.\n');
  fakes = await setupFakeAgents({ gemini: fake('gemini', [answer()]) });
  await runCodeReview(context({ cliPreference: ['gemini'] }), { env: fakes.env });
  const stdin = fakes.calls().find((call) => call.call === 'review')!.stdin;
  expect(stdin).toContain(
    '## Repository instructions from .github/instructions/typescript.instructions.md\n\nThese apply to: src/app.ts.\n\nUse explicit return types.',
  );
  expect(stdin).toContain(
    '## Repository instructions from src/AGENTS.md\n\nThese apply to: src/app.ts.\n\nsrc/ code never throws strings.',
  );
  expect(stdin).not.toContain('Use type hints.');
  expect(stdin).not.toContain('British English');
});

describe('credentials in what reviewers receive', () => {
  const awsSecret = fakeToken('', 40, BASE64, 'review-aws-secret');
  const npmToken = fakeChecksumToken('npm_', 'review-npm');
  const env = `AWS_SECRET_ACCESS_KEY=${awsSecret}\nNPM_TOKEN=${npmToken}\n`;

  /** A change set whose diff shows the AWS secret without the name that makes it recognisable. */
  function secretContext(options: Record<string, unknown>): CodeReviewContext {
    return context(
      options,
      {},
      {
        changeSet: {
          ...staticChangeSet(repo.root, { '.env': env }),
          diff: async () =>
            `diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,1 +1,2 @@\n-x\n+${awsSecret}\n+NPM_TOKEN=${npmToken}\n`,
        },
      },
    );
  }

  test('are masked in the prompt and the saved prompt file', async () => {
    fakes = await setupFakeAgents({ gemini: fake('gemini', [answer()]) });
    const outcome = await runCodeReview(secretContext({ cliPreference: ['gemini'] }), { env: fakes.env });
    expect(outcome.status).toBe('passed');
    const prompt = await readFile(join(repo.root, '.tollgate', 'runs', 'r1', 'code_review', 'prompt.txt'), 'utf8');
    expect(prompt).toContain('## Diff');
    expect(prompt).not.toContain(awsSecret);
    expect(prompt).not.toContain(npmToken);
    expect(prompt).toContain(`${awsSecret.slice(0, 4)}…`);
  });

  test('are sent as they are with sendSecrets: true', async () => {
    fakes = await setupFakeAgents({ gemini: fake('gemini', [answer()]) });
    await runCodeReview(secretContext({ cliPreference: ['gemini'], sendSecrets: true }), { env: fakes.env });
    const prompt = await readFile(join(repo.root, '.tollgate', 'runs', 'r1', 'code_review', 'prompt.txt'), 'utf8');
    expect(prompt).toContain(awsSecret);
  });
});
