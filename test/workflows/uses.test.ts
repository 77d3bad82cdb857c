import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * What the docs tell people to copy must resolve: every reference to tollgate's own Action or workflows names the
 * repository package.json names, at a tag of the release scheme (the moving major tag or a full vX.Y.Z); every other
 * action in a workflow we ship is pinned to a full commit with its version in a comment.
 */
const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  repository?: { url?: string };
};
const filesIn = (dir: string, pattern: RegExp) =>
  readdirSync(join(root, dir))
    .filter((name) => pattern.test(name))
    .map((name) => `${dir}/${name}`);
const docs = ['README.md', 'CHANGELOG.md', ...filesIn('docs', /\.md$/), ...filesIn('docs/ci', /\.ya?ml$/)];
const workflows = [...filesIn('docs/ci', /\.ya?ml$/), ...filesIn('.github/workflows', /\.ya?ml$/)];
const pinned = workflows;
const read = (file: string) => readFileSync(join(root, file), 'utf8');

const repository = /github\.com\/([^/]+\/[^/.]+)(?:\.git)?$/.exec(pkg.repository?.url ?? '')?.[1];
const major = `v${pkg.version.split('.')[0]}`;
const releaseTag = new RegExp(`^(${major}|v\\d+\\.\\d+\\.\\d+)$`);

/** `uses: a/b[/path]@ref` and `repository: a/b` (+ its `ref:`) lines of a file, with their line numbers. */
function references(file: string): Array<{ line: number; repo: string; ref: string; raw: string }> {
  const lines = read(file).split('\n');
  const found: Array<{ line: number; repo: string; ref: string; raw: string }> = [];
  lines.forEach((text, i) => {
    const uses = /uses:\s*["']?([\w.-]+\/[\w.-]+)(?:\/[^@\s"'`]*)?@([^\s"'`)]+)/.exec(text);
    if (uses) found.push({ line: i + 1, repo: uses[1]!, ref: uses[2]!, raw: text.trim() });
    const checkout = /^\s*repository:\s*["']?([\w.-]+\/tollgate)\b/.exec(text);
    if (checkout) {
      const ref = lines.slice(i + 1, i + 5).find((next) => /^\s*ref:/.test(next));
      found.push({
        line: i + 1,
        repo: checkout[1]!,
        ref: ref?.replace(/^\s*ref:\s*/, '').trim() ?? '',
        raw: text.trim(),
      });
    }
  });
  return found;
}

describe("the docs' uses: lines", () => {
  test('package.json names the repository', () => {
    expect(repository).toMatch(/^[\w.-]+\/tollgate$/);
  });

  test.each(docs)('%s: tollgate is named as the one repository, at a release tag', (file) => {
    const own = references(file).filter((ref) => /\/tollgate$/.test(ref.repo));
    for (const ref of own) {
      expect(`${file}:${ref.line} ${ref.repo}`).toBe(`${file}:${ref.line} ${repository}`);
      expect(ref.ref, `${file}:${ref.line} ${ref.raw}`).toMatch(releaseTag);
    }
    expect(read(file)).not.toMatch(/\bOWNER\/tollgate\b/);
  });

  test('the examples do use the Action, at the major tag', () => {
    const uses = filesIn('docs/ci', /\.ya?ml$/).flatMap((file) => references(file));
    expect(uses.filter((ref) => ref.repo === repository && ref.ref === major).length).toBeGreaterThanOrEqual(3);
  });

  test.each(pinned)('%s: every other action is pinned to a full commit, its version in a comment', (file) => {
    const others = references(file).filter((ref) => ref.repo !== repository && /\buses:/.test(ref.raw));
    expect(others.length).toBeGreaterThan(0);
    for (const ref of others) {
      expect(ref.raw, `${file}:${ref.line}`).toMatch(/@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/);
    }
  });

  test('CHANGELOG.md has a section for the version package.json says', () => {
    expect(read('CHANGELOG.md')).toMatch(
      new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });
});
