import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `npm run bench`'s own flags (bench/run-all.mjs): what it refuses before it runs any bench.
const runAll = join(process.cwd(), 'bench/run-all.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [runAll, ...args], { encoding: 'utf8' });

describe('npm run bench', () => {
  it('shows its usage with an example', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('example: npm run bench -- --load 8');
  });

  it.each([['--load'], ['--load', '0']])(
    'refuses %s with one line naming the flag and what is valid, exit 2',
    (...args) => {
      const result = run(...args);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('--load expects a count of processes from 1 to 64, e.g. --load 8');
    },
  );

  it('refuses a bench name that names none, exit 2', () => {
    const result = run('nosuch');
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('bench: no bench named nosuch in bench/ (e.g. npm run bench -- startup)');
  });
});
