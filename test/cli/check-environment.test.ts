import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/** A check (or analyzer) command that records when it started and ended, sleeping in between. */
const stamp = (name: string, seconds: number) =>
  `node -e "const fs=require('fs');fs.appendFileSync('times.log','${name} start '+Date.now()+'\\\\n');setTimeout(()=>fs.appendFileSync('times.log','${name} end '+Date.now()+'\\\\n'),${seconds * 1000})"`;

describe('what checks receive, and exclusive checks (built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({
      files: { 'keep.txt': 'x\n', 'gone.txt': 'y\n', '.gitignore': '*.out\ntimes.log\n' },
    });
  });
  afterEach(() => repo.cleanup());

  async function commitConfig(text: string): Promise<void> {
    await repo.write('tollgate.config.yaml', text);
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '--quiet', '-m', 'config');
    await repo.publish();
  }

  test('TOLLGATE_BASE is the base commit; TOLLGATE_CHANGED_FILES names a NUL-separated list of the changed paths', async () => {
    await commitConfig(
      'checks:\n  - name: env\n    run: \'printf "%s" "$TOLLGATE_BASE" > base.out; cp "$TOLLGATE_CHANGED_FILES" files.out\'\n',
    );
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('keep.txt', 'changed\n');
    await repo.write('src/new file.txt', 'new\n');
    await repo.git('rm', '--quiet', 'gone.txt');
    const result = await runCli(['run', '--only', 'checks'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(readFileSync(join(repo.root, 'base.out'), 'utf8')).toBe(base);
    const files = readFileSync(join(repo.root, 'files.out'), 'utf8').split('\0');
    expect(files.pop()).toBe('');
    expect(files.sort()).toEqual(['keep.txt', 'src/new file.txt']);
  });

  test('an exclusive check runs alone: after the other checks and after every other validator', async () => {
    await commitConfig(
      [
        'checks:',
        `  - name: timing\n    exclusive: true\n    run: ${JSON.stringify(stamp('timing', 0.2))}`,
        `  - name: lint\n    run: ${JSON.stringify(stamp('lint', 1))}`,
        'static_analysis:',
        '  codeql: { enabled: false }',
        '  semgrep: { enabled: false }',
        '  eslint: { enabled: false }',
        '  analyzers:',
        `    - name: slow\n      run: ${JSON.stringify(`${stamp('slow', 1.5)}; echo '{"version":"2.1.0","runs":[]}' > "$TOLLGATE_SARIF"`)}`,
        '      sarif: .tollgate/slow.sarif',
        '',
      ].join('\n'),
    );
    await repo.write('keep.txt', 'changed\n');
    const result = await runCli(['run'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    const times = Object.fromEntries(
      readFileSync(join(repo.root, 'times.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const [name, edge, at] = line.split(' ');
          return [`${name} ${edge}`, Number(at)];
        }),
    );
    expect(times['timing start']).toBeGreaterThanOrEqual(times['lint end']!);
    expect(times['timing start']).toBeGreaterThanOrEqual(times['slow end']!);
  });

  test('exclusive must be a boolean', async () => {
    await repo.write('tollgate.config.yaml', 'checks:\n  - name: t\n    run: "true"\n    exclusive: "yes"\n');
    const result = await runCli(['config', 'show'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/checks\[0\]\.exclusive/);
  });
});
