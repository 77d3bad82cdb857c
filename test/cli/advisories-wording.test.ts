import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeOsv, startFakeOsv } from '../fakes/osv/server.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * A report read at a terminal names commands, not MCP inputs, and a Python project is shown a PyPI package. A
 * lockfile read twice (requirements.txt is both the pins and the ranges) is named once.
 */
describe('advisories speak the CLI in a CLI report (built CLI, fake OSV)', () => {
  let osv: FakeOsv;
  let repo: TempRepo;
  const advisories = async () => {
    const run = await runCli(['run', '--only', 'advisories', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const report = JSON.parse(run.stdout) as { tools: Array<{ name: string; summary: string }> };
    return report.tools.find((tool) => tool.name === 'advisories')!.summary;
  };

  beforeAll(async () => {
    osv = await startFakeOsv();
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': `advisories:\n  sources: [osv]\n  osv: { url: "${osv.url}" }\n  cache: { enabled: false }\n`,
        'requirements.txt': 'requests==2.31.0\n',
        'app.py': 'print(1)\n',
      },
    });
    await repo.publish();
  }, 60_000);
  afterAll(async () => {
    await repo.cleanup();
    await osv.close();
  });

  test('no lockfile changed: the Python example, as a command', async () => {
    await repo.write('app.py', 'print(2)\n');
    expect(await advisories()).toBe(
      'no lockfile or manifest changed; nothing to check. To vet a dependency before adding it, run `tollgate advisories check pypi:requests@2.19.0`',
    );
  }, 60_000);

  test('a lockfile changed without a new dependency: named once, and --all as a command', async () => {
    await repo.write('requirements.txt', '# pinned\nrequests==2.31.0\n');
    expect(await advisories()).toBe(
      'requirements.txt changed, but no dependency was added or upgraded (run `tollgate advisories check --all` to check every locked dependency)',
    );
  }, 60_000);
});
