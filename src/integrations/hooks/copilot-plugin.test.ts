import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createTempRepo } from '../../../test/support/git-repo.js';
import { COPILOT_PLUGIN_DIR, copilotPluginFiles, pluginPackageInfo } from './copilot-plugin.js';
import { installAgent } from './install.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const generated = await copilotPluginFiles(pluginPackageInfo(packageJson));

test('the committed Copilot CLI plugin is what the generator writes (run `npm run plugin:copilot` after a change)', async () => {
  const dir = join(root, COPILOT_PLUGIN_DIR);
  expect((await readdir(dir)).sort()).toEqual(Object.keys(generated).sort());
  for (const [name, text] of Object.entries(generated))
    expect(await readFile(join(dir, name), 'utf8'), name).toBe(text);
  expect(packageJson.files).toContain(COPILOT_PLUGIN_DIR.split('/')[0]);
});

test('the manifest is valid for Copilot CLI and names the hook and MCP files', () => {
  const manifest = JSON.parse(generated['plugin.json']!);
  expect(manifest.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  expect(manifest.name.length).toBeLessThanOrEqual(64);
  expect(manifest.description.length).toBeLessThanOrEqual(1024);
  expect(manifest.version).toBe(packageJson.version);
  expect(manifest).toMatchObject({ hooks: 'hooks.json', mcpServers: '.mcp.json' });
});

test('the plugin holds the same hook and MCP server as `tollgate install copilot --user`', async () => {
  const repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  try {
    await installAgent({ agent: 'copilot', scope: 'user', cwd: repo.root, env: repo.env, home: repo.home });
    const userHooks = await readFile(join(repo.home, '.copilot', 'hooks', 'tollgate.json'), 'utf8');
    const userMcp = JSON.parse(await readFile(join(repo.home, '.copilot', 'mcp-config.json'), 'utf8'));
    expect(JSON.parse(generated['hooks.json']!)).toEqual(JSON.parse(userHooks));
    expect(JSON.parse(generated['.mcp.json']!)).toEqual({ mcpServers: { tollgate: userMcp.mcpServers.tollgate } });
    expect(JSON.parse(userHooks).hooks.agentStop[0].bash).toBe('tollgate hook stop --agent copilot');
  } finally {
    await repo.cleanup();
  }
});
