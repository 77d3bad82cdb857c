import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/run-cli.js';

const ROOT = join(import.meta.dirname, '../..');

interface HookEntry {
  id: string;
  name: string;
  entry: string;
  language: string;
  pass_filenames?: boolean;
  stages?: string[];
}

describe('.pre-commit-hooks.yaml (the pre-commit framework adds tollgate with repo:/rev:)', () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as HookEntry[];
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    scripts: Record<string, string>;
  };

  test('parses to a list of node hooks with ids, names and entries', () => {
    expect(hooks.map((hook) => hook.id)).toEqual(['tollgate-secrets', 'tollgate-run']);
    for (const hook of hooks) {
      expect(hook).toMatchObject({ language: 'node', pass_filenames: false, name: expect.any(String) });
      for (const stage of hook.stages ?? []) expect(['pre-commit', 'pre-push', 'manual']).toContain(stage);
    }
  });

  test('each entry starts with a bin the package installs, and npm pack builds what that bin loads', () => {
    for (const hook of hooks) {
      const [bin] = hook.entry.split(' ');
      expect(Object.keys(pkg.bin)).toContain(bin);
      expect(existsSync(join(ROOT, pkg.bin[bin!]!))).toBe(true);
    }
    // pre-commit installs a node hook with `npm install` then `npm pack`: prepack must build the bundle.
    expect(pkg.scripts.prepack).toBe('npm run build');
  });

  test.each(['tollgate-secrets', 'tollgate-run'])('the %s entry is a command the built CLI knows', async (id) => {
    const hook = hooks.find((entry) => entry.id === id)!;
    const args = hook.entry.split(' ').slice(1);
    const help = await runCli([...args, '--help'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
    expect(help.exitCode, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: tollgate /);
  });
});
