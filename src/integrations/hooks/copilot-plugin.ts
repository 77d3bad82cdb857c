import { copilotHooks } from './copilot.js';
import type { ConfigEdit } from './hook-agent.js';
import { installCommands } from './install.js';
import { addHook, addJsonEntry } from './json-config-file.js';

/** Where the plugin lives in the repository and the npm package (`copilot plugin install OWNER/REPO:plugins/copilot`). */
export const COPILOT_PLUGIN_DIR = 'plugins/copilot';

/** The package fields the manifest repeats. */
export interface PluginPackageInfo {
  version: string;
  description: string;
  license: string;
  repositoryUrl: string;
}

/** The manifest's fields from package.json. */
export function pluginPackageInfo(pkg: {
  version: string;
  description: string;
  license: string;
  repository: { url: string };
}): PluginPackageInfo {
  return {
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    repositoryUrl: pkg.repository.url,
  };
}

/** Where each kind of edit goes inside a Copilot CLI plugin (its documented default file names). */
const PLUGIN_FILE: Record<Exclude<ConfigEdit['kind'], 'toml-mcp'>, string> = {
  hook: 'hooks.json',
  'json-mcp': '.mcp.json',
};

/**
 * The files of the GitHub Copilot CLI plugin, by name: `plugin.json`, and the hook and MCP server files built from the
 * very edits `tollgate install copilot --user` merges into `~/.copilot`, so the plugin and the install never differ.
 */
export async function copilotPluginFiles(info: PluginPackageInfo): Promise<Record<string, string>> {
  const commands = await installCommands('copilot');
  const { edits } = copilotHooks.configEdits('user', { home: '', repoRoot: null }, commands);
  const files: Record<string, string> = {};
  for (const edit of edits) {
    if (edit.kind === 'toml-mcp') throw new Error('a Copilot CLI plugin has no file for a TOML edit');
    const name = PLUGIN_FILE[edit.kind];
    const before = files[name] ?? '';
    const change =
      edit.kind === 'hook' ? addHook(before, edit, name) : addJsonEntry(before, edit.path, edit.value, name);
    if (change) files[name] = change.text;
  }
  const manifest = {
    name: 'tollgate',
    description: `${info.description} Adds tollgate's agentStop hook and MCP server; needs \`tollgate\` on PATH.`,
    version: info.version,
    author: { name: 'tollgate' },
    license: info.license,
    repository: info.repositoryUrl.replace(/^git\+/, '').replace(/\.git$/, ''),
    keywords: ['validation', 'code-review', 'secrets', 'stop-hook', 'mcp'],
    ...(files['hooks.json'] ? { hooks: 'hooks.json' } : {}),
    ...(files['.mcp.json'] ? { mcpServers: '.mcp.json' } : {}),
  };
  return { 'plugin.json': `${JSON.stringify(manifest, null, 2)}\n`, ...withNewline(files) };
}

function withNewline(files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(files).map(([name, text]) => [name, text.endsWith('\n') ? text : `${text}\n`]),
  );
}
