import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * A throwaway HOME inside the repository (a scratch project, a container whose home is the checkout): npm's logs,
 * caches and tollgate's own code cache and state key are written there by every command, and would make every run
 * "changed while tollgate ran". HOME is the starter's environment, not the change: the snapshot leaves it out, as it
 * leaves out .tollgate/.
 */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

test('a HOME inside the work tree is not part of the change, and a run whose check writes there passes', async () => {
  repo = await createTempRepo({
    files: {
      'tollgate.config.yaml':
        "checks:\n  - name: writes-home\n    run: node -e \"require('fs').writeFileSync(process.env.HOME + '/log-' + Date.now(), 'x')\"\nvalidation:\n  static_analysis: { enabled: false }\n",
    },
  });
  const home = join(repo.root, 'home');
  await mkdir(join(home, '.cache'), { recursive: true });
  await writeFile(join(home, '.cache', 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 1));
  await repo.write('app.js', 'export const a = 1;\n');
  const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: { ...repo.env, HOME: home } });
  const report = JSON.parse(result.stdout) as { verdict: string; changeSet: { files: Array<{ path: string }> } };
  expect(report.verdict, result.stdout.slice(0, 2000)).toBe('passed');
  expect(result.exitCode).toBe(0);
  expect(JSON.stringify(report)).not.toContain('home/');
});
