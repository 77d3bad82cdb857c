import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
