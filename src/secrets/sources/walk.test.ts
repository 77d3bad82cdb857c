import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { listFilesUnder } from './walk.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-walk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('a folder outside git is walked without any .git folder in it (a repository copy, nested clones)', async () => {
  const files = {
    'app.env': 'TOKEN=x\n',
    'src/main.ts': 'export {};\n',
    '.git/config': '[core]\n',
    '.git/objects/pack/pack-1.pack': 'compressed object bytes\n',
    'vendor/lib/.git/HEAD': 'ref: refs/heads/main\n',
    'vendor/lib/index.js': 'module.exports = 1;\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const listed = await listFilesUnder(null, [root]);
  expect(listed.map((file) => relative(root, file.absolute).split('\\').join('/')).sort()).toEqual([
    'app.env',
    'src/main.ts',
    'vendor/lib/index.js',
  ]);
});
