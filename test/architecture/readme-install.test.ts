import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test("the README's install builds once: npm pack's prepack builds, so no build runs before it", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.prepack).toBe('npm run build');
  expect(pkg.scripts.prepare).toBeUndefined();
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const packLines = readme
    .split('\n')
    .filter((line) => /\bnpm pack\b/.test(line) && !line.includes('--ignore-scripts'));
  expect(packLines.length).toBeGreaterThan(0);
  expect(packLines.filter((line) => /npm run build|tsc|bundle\.mjs/.test(line))).toEqual([]);
});
