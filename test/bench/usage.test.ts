import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const { headerComment } = (await import(pathToFileURL(join(process.cwd(), 'bench/measure.mjs')).href)) as {
  headerComment: (source: string) => string;
};

// Every runnable bench answers `--help` with its own header comment and exits 0 before it builds or times anything
// (bench/measure.mjs, `exitWithUsageIfAsked`).
const bench = join(process.cwd(), 'bench');
const help = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(bench, script), ...args], { encoding: 'utf8', timeout: 30_000 });

const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-usage-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("a bench's --help", () => {
  it('prints the header of every bench that calls it, and exits 0 at once', () => {
    const scripts = readdirSync(bench).filter(
      (name) =>
        name.endsWith('.mjs') && readFileSync(join(bench, name), 'utf8').includes('exitWithUsageIfAsked(import'),
    );
    expect(scripts.length).toBeGreaterThan(20);
    for (const script of scripts) {
      const result = help(script, '--help');
      expect(result.status, script).toBe(0);
      const first = headerComment(readFileSync(join(bench, script), 'utf8')).split('\n')[0] ?? '';
      expect(result.stdout.startsWith(first), script).toBe(true);
    }
  });

  it('stays quiet in a bench that another imports: only the script node started answers', () => {
    // scale.mjs imports thread-timeline.mjs, which answers --help itself when run alone.
    const result = help('scale.mjs', '-h');
    expect(result.status).toBe(0);
    expect(result.stdout.startsWith('Cliffs a review found')).toBe(true);
  });

  it('reads a header of line comments or one block comment, after a shebang', () => {
    expect(headerComment('#!/usr/bin/env node\n// What it does.\n//   node x.mjs --runs N\nimport x;\n')).toBe(
      'What it does.\n  node x.mjs --runs N',
    );
    expect(headerComment('/**\n * What it does.\n *\n *   node y.mjs\n */\nconst a = 1;\n')).toBe(
      'What it does.\n\n  node y.mjs',
    );
    writeFileSync(join(work, 'bare.mjs'), 'const a = 1;\n');
    expect(headerComment(readFileSync(join(work, 'bare.mjs'), 'utf8'))).toContain('no usage note');
  });
});
