import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

/**
 * A comment says why, in words a reader of the code has: a tracker's issue number or a design note's seed number
 * points at what does not ship with the code. Say the reason instead.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FOLDERS = ['src', 'test', 'scripts', 'bench', 'bin'];
const SKIP = /(^|\/)(node_modules|fixtures|\.agent-clis|\.node-versions|\.cache)(\/|$)/;
const REFERENCE = /\b(issues?|seeds?)\s*#?\d{1,3}\b/i;
const COMMENT = /\/\/.*$|\/\*[\s\S]*?\*\//gm;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
    const path = relative(ROOT, join(entry.parentPath, entry.name));
    if (entry.isFile() && /\.(ts|mjs|cjs|js)$/.test(entry.name) && !SKIP.test(path)) found.push(path);
  }
  return found;
}

describe('source comments', () => {
  test('name no issue or seed number', () => {
    const offenders: string[] = [];
    for (const file of FOLDERS.flatMap(sourceFiles)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const comment of text.match(COMMENT) ?? []) {
        const hit = REFERENCE.exec(comment);
        if (hit) offenders.push(`${file}: "${hit[0]}"`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
