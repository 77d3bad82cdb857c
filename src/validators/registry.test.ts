import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { validators } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const kebab = (name: string) => name.replace(/_/g, '-');
const folders = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Keeps the registry, the folders, the docs and the README in step: each message names the file and what to add. */
describe('validator registry parity', () => {
  test('the registry is sorted by name and names are unique snake_case', () => {
    const names = validators.map((tool) => tool.name);
    expect(names, 'src/validators/index.ts: keep the list sorted by name').toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  test.each(folders)('src/validators/%s/ is registered in src/validators/index.ts', (folder) => {
    const source = readFileSync(join(here, 'index.ts'), 'utf8');
    expect(
      source,
      `add "import { …Tool } from './${folder}/index.js';" and list it in src/validators/index.ts`,
    ).toContain(`./${folder}/index.js`);
  });

  test.each(validators.map((tool) => [tool.name, tool] as const))(
    '%s has docs/validators/<name>.md with the standard sections',
    (name, tool) => {
      const page = join(root, 'docs', 'validators', `${kebab(name)}.md`);
      expect(existsSync(page), `write docs/validators/${kebab(name)}.md`).toBe(true);
      const text = readFileSync(page, 'utf8');
      for (const section of [
        '## What it checks',
        '## Options',
        '## When it skips',
        '## Example output',
        '## When not to use it',
      ]) {
        expect(text, `docs/validators/${kebab(name)}.md: add a "${section}" section`).toContain(section);
      }
      expect(tool.description.length, `${name}: the agent-facing description says when to call it`).toBeGreaterThan(40);
    },
  );

  test.each(validators.map((tool) => [tool.name] as const))('%s has a row in the README validators table', (name) => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme, `README.md: add a row for \`${name}\` to the Validators table`).toContain(
      `[\`${name}\`](docs/validators/${kebab(name)}.md)`,
    );
  });
});

test.each(validators.map((tool) => [tool.name, tool] as const))(
  "%s's options schema ends in .prefault(), so an absent section parses to its defaults",
  (_name, tool) => {
    expect((tool.optionsSchema as { def: { type: string } }).def.type).toBe('prefault');
  },
);
