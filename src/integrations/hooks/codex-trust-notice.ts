import { join } from 'node:path';
import { codexHooks } from './codex.js';
import { readTextOrEmpty } from './config-files.js';
import type { HookEdit, ScopeRoots } from './hook-agent.js';
import { installCommands } from './install.js';
import { hookPosition } from './json-config-file.js';
import { hasTable } from './toml-config-file.js';

/**
 * What the MCP server tells the agent when tollgate's Codex stop hook is installed but its trust was never recorded:
 * Codex then skips the hook without a word, so the gate is off until a person acts. Read from the files alone (asking
 * `codex app-server` takes too long for a server's start; `tollgate doctor` asks it); null when nothing is amiss or
 * nothing can be read.
 */
export async function codexTrustNotice(roots: ScopeRoots): Promise<string | null> {
  const commands = await installCommands('codex');
  for (const scope of roots.repoRoot ? (['project', 'user'] as const) : (['user'] as const)) {
    try {
      const hook = codexHooks
        .configEdits(scope, roots, commands)
        .edits.find((edit): edit is HookEdit => edit.kind === 'hook');
      if (!hook) continue;
      const hooks = await readTextOrEmpty(hook.file);
      const position = hooks.existed ? hookPosition(hooks.text, hook, commands.hookCommand, hook.file) : null;
      if (!position) continue;
      const key = `${hook.file}:stop:${position.group}:${position.handler}`;
      const config = await readTextOrEmpty(join(roots.home, '.codex', 'config.toml'));
      if (hasTable(config.text, ['hooks', 'state', key], 'config.toml')) continue;
      const rerun = `tollgate install codex${scope === 'user' ? ' --user' : ''}`;
      return `tollgate's stop hook for Codex is installed but NOT trusted, so Codex skips it and nothing checks this work before it stops. A person must run \`${rerun}\` (or trust the hook in \`codex\` under /hooks); until then, validate with these tools before declaring work done.`;
    } catch {
      // A file that cannot be read or parsed: doctor reports it.
    }
  }
  return null;
}
