import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { COPILOT_PLUGIN_DIR } from '../../src/integrations/hooks/copilot-plugin.js';
import { removeDir, tempDir } from '../support/git-repo.js';
import { agentCliPath, installTollgate } from '../support/installed-tollgate.js';

/**
 * The Copilot CLI plugin as shipped in the npm package, installed by the pinned Copilot CLI into a temp home. Copilot
 * needs GitHub sign-in to start a session, so this checks what it reads offline: the plugin list and the MCP server the
 * plugin brings (`copilot mcp get`), plus the hook file it installed.
 */
const COPILOT = agentCliPath('copilot');
const installed = existsSync(COPILOT);
if (!installed)
  console.warn(`skipped: Copilot CLI is not installed at ${COPILOT}; run test/agents/install-real-clis.sh`);

let work: string;
let plugin: string;
beforeAll(async () => {
  if (!installed) return;
  work = await tempDir('tollgate-e2e-copilot-plugin-');
  const bin = await installTollgate(work);
  plugin = join(bin, '..', 'lib', 'node_modules', 'tollgate', COPILOT_PLUGIN_DIR);
}, 300_000);
afterAll(async () => {
  if (work) await removeDir(work);
});

describe.skipIf(!installed)('Copilot CLI plugin', () => {
  test('`copilot plugin install` of the packaged folder lists the plugin, its MCP server and its stop hook', async () => {
    const home = join(work, 'home');
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      COPILOT_HOME: join(home, '.copilot'),
      COPILOT_CACHE_HOME: join(home, '.cache', 'copilot'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
    };
    const copilot = (...args: string[]) => runProcess(COPILOT, args, { cwd: work, env, timeoutMs: 120_000 });
    const show = (result: { exitCode: number | null; stdout: string; stderr: string }) =>
      `exit ${result.exitCode}\n${result.stdout}\n${result.stderr}`;

    const install = await copilot('plugin', 'install', plugin);
    expect(install.exitCode, show(install)).toBe(0);
    const version = JSON.parse(await readFile(join(plugin, 'plugin.json'), 'utf8')).version;
    const list = await copilot('plugin', 'list');
    expect(list.stdout, show(list)).toContain(`tollgate (v${version})`);
    const server = await copilot('mcp', 'get', 'tollgate');
    expect(server.exitCode, show(server)).toBe(0);
    expect(server.stdout).toContain('Command: tollgate mcp');
    expect(server.stdout).toMatch(/Source plugin: tollgate/);
    // Copilot copies the plugin into installed-plugins/_direct/<source id>/; its hooks.json is the one it runs.
    const copied = join(home, '.copilot', 'installed-plugins', '_direct', 'copilot');
    const hooks = JSON.parse(await readFile(join(copied, 'hooks.json'), 'utf8'));
    expect(hooks.hooks.agentStop[0]).toMatchObject({ bash: 'tollgate hook stop --agent copilot' });

    const uninstall = await copilot('plugin', 'uninstall', 'tollgate');
    expect(uninstall.exitCode, show(uninstall)).toBe(0);
    expect((await copilot('plugin', 'list')).stdout).not.toContain('tollgate (v');
  });
});
