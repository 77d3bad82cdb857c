import { afterEach, describe, expect, test } from 'vitest';
import { fakeHumanPassword, wrongChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `tollgate scan --report-allowed` also lists what a provider rule recognised and rejected, which is otherwise dropped
 * silently: a person testing with a made-up token learns why nothing was found. Masked only, through the built CLI, on
 * this thread and on a worker thread alike.
 */
let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

const badToken = wrongChecksumToken('ghp_', 'scan-rejected');
const password = fakeHumanPassword('scan-rejected');
const placeholder = 'changeme-later';

describe('tollgate scan --report-allowed: rejected candidates', () => {
  test('a wrong checksum, a documentation host and a placeholder are listed with their reasons, never raw', async () => {
    repo = await createTempRepo({
      files: {
        'README.md': '# demo\n',
        'tollgate.config.yaml': '',
        'app.env': [
          `GITHUB_TOKEN=${badToken}`,
          `MIRROR=https://deploy:${password}@git.example.net/repo.git`,
          `UPSTREAM=https://deploy:${placeholder}@git.acme.internal/repo.git`,
          '',
        ].join('\n'),
      },
    });
    const scan = (...args: string[]) =>
      runCli(['scan', 'app.env', ...args], { cwd: repo.root, env: { ...repo.env, TOLLGATE_SCAN_THREADS: '1' } });

    const plain = await scan();
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).not.toContain('Recognised but not reported');

    const markdown = await scan('--report-allowed');
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toContain('Recognised but not reported (3):');
    expect(markdown.stdout).toMatch(
      /- `app\.env:1:14` `secrets\/github-pat` `ghp_[^`]*`: fails the format check \(a checksum or the shape the provider issues\)\n/,
    );
    expect(markdown.stdout).toMatch(
      /- `app\.env:2:23` `secrets\/basic-auth-url` `[^`]*`: a documentation host \(example\.com, example\.net, example\.org\)\n/,
    );
    expect(markdown.stdout).toMatch(/- `app\.env:3:25` `secrets\/basic-auth-url` `[^`]*`: a placeholder value\n/);

    const json = JSON.parse((await scan('--report-allowed', '--format', 'json')).stdout);
    expect(json.findings).toEqual([]);
    expect(json.rejected).toMatchObject([
      { path: 'app.env', line: 1, ruleId: 'github-pat' },
      { path: 'app.env', line: 2, ruleId: 'basic-auth-url', reason: expect.stringContaining('documentation host') },
      { path: 'app.env', line: 3, ruleId: 'basic-auth-url', reason: 'a placeholder value' },
    ]);
    // With a worker thread started (which thread takes the file is their race), the list is the same.
    const threaded = await runCli(['scan', 'app.env', '--report-allowed', '--format', 'json'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_SCAN_THREADS: '2' },
    });
    expect(JSON.parse(threaded.stdout).rejected).toEqual(json.rejected);

    for (const text of [markdown.stdout, JSON.stringify(json), threaded.stdout]) {
      expect(text).not.toContain(badToken);
      expect(text).not.toContain(password);
      expect(text).not.toContain(placeholder);
    }
  });
});
