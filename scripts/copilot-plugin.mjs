#!/usr/bin/env node
// `npm run plugin:copilot`: writes the GitHub Copilot CLI plugin (plugins/copilot/) from the built code (dist/), from
// the same hook and MCP entries `tollgate install copilot` writes. src/integrations/hooks/copilot-plugin.test.ts fails
// when the committed folder differs from what this writes.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { COPILOT_PLUGIN_DIR, copilotPluginFiles, pluginPackageInfo } = await import(
  join(root, 'dist/integrations/hooks/copilot-plugin.js')
);
const files = await copilotPluginFiles(pluginPackageInfo(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))));
const dir = join(root, COPILOT_PLUGIN_DIR);
mkdirSync(dir, { recursive: true });
for (const name of readdirSync(dir)) if (!(name in files)) rmSync(join(dir, name), { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
console.log(`${COPILOT_PLUGIN_DIR}: ${Object.keys(files).sort().join(', ')}`);
