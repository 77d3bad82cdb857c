import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createRunnerFiles,
  parseOutputs,
  repoRoot,
  runActionMain,
  runnerEnvironment,
} from '../support/action-runner.js';
import { createTempRepo, removeDir } from '../support/git-repo.js';

/**
 * A pull request from a fork runs with a read-only token: GitHub answers the comment with 403 "Resource not
 * accessible by integration". The gate passed, so the step passes; the report is in the step summary, with a notice.
 */
const token = 'ghs_forkReadOnlyToken0123456789abcdefABCD';
const requests: string[] = [];
let server: Server;
let apiUrl = '';
const cleanup: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.setHeader('x-ratelimit-remaining', '4999');
    if (req.method === 'GET') {
      res.end('[]');
      return;
    }
    res.statusCode = 403;
    res.end(
      JSON.stringify({
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
        status: '403',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all(cleanup.map((dir) => removeDir(dir)));
});

test('comment "true" on a fork\'s pull request: 403 from GitHub, the passed gate still passes, notice and summary', async () => {
  const repo = await createTempRepo({
    files: { 'README.md': '# shop\n', 'tollgate.config.yaml': 'validation:\n  advisories: { enabled: false }\n' },
  });
  try {
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', '-q', '-b', 'fork/typo');
    await repo.write('README.md', '# shop\n\nA shop.\n');
    await repo.commit('readme: say what it is');
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const event = join(repo.home, 'event.json');
    const payload = readFileSync(join(repoRoot, 'test/fixtures/github-action/pull_request.json'), 'utf8')
      .replace('BASE_SHA', base)
      .replace('HEAD_SHA', head)
      .replace(
        '"repo": { "full_name": "acme/shop" } },\n    "base"',
        '"repo": { "full_name": "someone/shop" } },\n    "base"',
      );
    writeFileSync(event, payload);
    const files = await createRunnerFiles();
    cleanup.push(files.dir);
    const env = {
      ...repo.env,
      ...runnerEnvironment(files, repo.root),
      GITHUB_EVENT_PATH: event,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_API_URL: apiUrl,
      GITHUB_REPOSITORY: 'acme/shop',
    };
    const run = await runActionMain(repo.root, env, { comment: 'true' }, token);
    expect(run.exitCode, `${run.stderr}\n${run.stdout}`).toBe(0);
    expect(requests).toContain('POST /repos/acme/shop/issues/7/comments');
    expect(parseOutputs(readFileSync(files.output, 'utf8'))).toMatchObject({ verdict: 'passed', findings: '0' });
    expect(run.stdout).toMatch(/^::notice title=tollgate comment::tollgate: no comment on #7: the token cannot write/m);
    const summary = readFileSync(files.summary, 'utf8');
    expect(summary).toMatch(/passed/i);
    expect(summary).toMatch(/no comment on #7: the token cannot write to the pull request/);
    for (const text of [run.stdout, run.stderr, summary]) expect(text).not.toContain(token);
  } finally {
    await repo.cleanup();
  }
});
