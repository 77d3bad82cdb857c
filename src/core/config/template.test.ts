import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { registriesWith } from '../../../test/support/registries.js';
import { validators } from '../../validators/index.js';
import { TollgateError } from '../errors.js';
import { parseConfigText } from './load.js';
import { buildConfigSchema } from './schema.js';
import { CONFIG_DOC_URL, extractConfigTemplate, readConfigTemplate } from './template.js';

describe('the config template (the yaml block of docs/config.md, written by `tollgate init`)', () => {
  test('is read from the package docs/config.md', async () => {
    const markdown = await readFile(CONFIG_DOC_URL, 'utf8');
    const template = await readConfigTemplate();
    expect(markdown).toContain(`\`\`\`yaml\n${template}\`\`\``);
    expect(template.startsWith('# tollgate.config.yaml')).toBe(true);
  });

  test('loads cleanly and gives exactly the defaults', async () => {
    const template = await readConfigTemplate();
    const loaded = parseConfigText({
      text: template,
      file: 'tollgate.config.yaml',
      env: {},
      registries: registriesWith(validators),
    });
    expect(loaded.hash).toBe(
      parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(validators) }).hash,
    );
    expect([...loaded.sources.values()].every((source) => source === 'default')).toBe(true);
  });

  test('has an example check', async () => {
    expect(await readConfigTemplate()).toMatch(/^checks:\n {2}# - name: \S+.*\n {2}# {3}run: /m);
  });

  test.each(Object.keys(buildConfigSchema(registriesWith(validators)).shape))(
    'documents the top-level section "%s" (add it to the yaml block of docs/config.md)',
    async (section) => {
      expect(await readConfigTemplate()).toMatch(new RegExp(`^(# )?${section}:`, 'm'));
    },
  );

  test.each(validators.map((tool) => tool.name))(
    'documents the switch validation.%s.enabled (add "  # <name>:\\n  #   enabled: …" under validation: in docs/config.md)',
    async (name) => {
      expect(await readConfigTemplate()).toMatch(new RegExp(`^ {2}# ${name}:\\n {2}# {3}enabled: (true|false)$`, 'm'));
    },
  );

  test.each([
    { name: 'no yaml block', markdown: '# Configuration\n' },
    { name: 'two yaml blocks', markdown: '```yaml\na: 1\n```\n\n```yaml\nb: 2\n```\n' },
  ])('a page with $name is an error', ({ markdown }) => {
    expect(() => extractConfigTemplate(markdown)).toThrow(TollgateError);
  });

  test('extraction keeps the block byte for byte', () => {
    expect(extractConfigTemplate('intro\n\n```yaml\n# a\nchecks: []\n```\nafter\n')).toBe('# a\nchecks: []\n');
  });
});
