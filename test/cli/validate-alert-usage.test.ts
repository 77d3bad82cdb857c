import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFakeGithubRest } from '../fakes/github-rest/server.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/** Alert numbers start at 1: `validate-alert acme/web 0` is a usage error, and nothing is asked of the API. */
let repo: TempRepo;
let requests = 0;
const api = createServer((_req, res) => {
  requests++;
  res.statusCode = 404;
  res.end('{}');
});
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
});
afterAll(async () => {
  api.close();
  await repo.cleanup();
});

describe('validate-alert ALERT_ID', () => {
  test.each(['0', '-1', '1e3', '42abc'])('%s is a usage error (exit 2) and no request is sent', async (id) => {
    const env = {
      ...repo.env,
      GITHUB_TOKEN: 'fake-usage-token-0123456789',
      GITHUB_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
    };
    const result = await runCli(['validate-alert', 'acme/web', id], { cwd: repo.root, env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('ALERT_ID: expected an alert number (1 or more)');
    expect(requests).toBe(0);
  });
});

describe('GITHUB_TOKEN_FILE', () => {
  test('the token is read from the file, not the environment, and sent to the API', async () => {
    const token = 'fake-file-token-0123456789abcdef';
    const fake = await startFakeGithubRest({
      token,
      repos: {
        'acme/web': {
          clone_url: 'file:///nowhere.git',
          alerts: { 7: { number: 7, secret_type: 'github_personal_access_token', locations: [] } },
        },
      },
    });
    try {
      const file = join(repo.home, 'alerts-token');
      writeFileSync(file, `${token}\n`, { mode: 0o600 });
      const env = { ...repo.env, GITHUB_TOKEN_FILE: file, GITHUB_API_URL: fake.url, PATH: '/usr/bin:/bin' };
      const result = await runCli(['validate-alert', 'acme/web', '7', '--agent', 'claude'], { cwd: repo.root, env });
      expect(fake.requests.length).toBeGreaterThan(0);
      expect(fake.requests.every((request) => request.authorized)).toBe(true);
      expect(result.stdout + result.stderr).not.toContain(token);
      const missing = await runCli(['validate-alert', 'acme/web', '7'], {
        cwd: repo.root,
        env: { ...env, GITHUB_TOKEN_FILE: join(repo.home, 'nope') },
      });
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toMatch(/^tollgate: GITHUB_TOKEN_FILE: cannot read /);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
