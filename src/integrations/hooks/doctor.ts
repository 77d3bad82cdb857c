import { join } from 'node:path';
import { findRepoRoot } from '../../core/config/repo-root.js';
import { errorMessage } from '../../core/errors.js';
import { listCodexHooks } from './codex-trust.js';
import { displayPath, readTextOrEmpty } from './config-files.js';
import type { ConfigEdit, InstallScope, ScopeRoots } from './hook-agent.js';
import { hookAgents } from './index.js';
import { installCommands } from './install.js';
import { hasHook, hookPosition, jsonEntry } from './json-config-file.js';
import { hasTable } from './toml-config-file.js';

/** doctor has a fallback (the recorded trust in config.toml), so it waits less for codex than install does. */
const DOCTOR_CODEX_TIMEOUT_MS = 60_000;

export interface DoctorRow {
  agent: string;
  scope: InstallScope;
  file: string;
  what: 'stop hook' | 'MCP server' | 'hook trust';
  /** `not trusted`: a Codex hook that Codex skips, because its current hash is not the trusted one. */
  state: 'installed' | 'missing' | 'no file' | 'unreadable' | 'not trusted';
  detail?: string;
}

export interface DoctorOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  bin?: string;
  /** How long to wait for `codex app-server` when asking whether a Codex hook is trusted. */
  codexTimeoutMs?: number;
}

/** `tollgate doctor`: what is installed where, read from the agents' own files. */
export async function diagnoseInstalls(options: DoctorOptions): Promise<DoctorRow[]> {
  const repoRoot = await findRepoRoot(options.cwd, options.env).catch(() => null);
  const roots: ScopeRoots = { repoRoot, home: options.home };
  const scopes: InstallScope[] = repoRoot ? ['project', 'user'] : ['user'];
  const rows: DoctorRow[] = [];
  for (const agent of hookAgents) {
    const commands = await installCommands(agent.name, options.bin);
    for (const scope of scopes) {
      for (const edit of agent.configEdits(scope, roots, commands).edits) {
        rows.push(await inspect(agent.name, scope, edit, roots, commands.hookCommand));
        if (agent.name === 'codex' && edit.kind === 'hook')
          rows.push(await inspectCodexTrust({ scope, hook: edit, roots, hookCommand: commands.hookCommand, options }));
      }
    }
  }
  return rows;
}

async function inspect(
  agent: string,
  scope: InstallScope,
  edit: ConfigEdit,
  roots: ScopeRoots,
  hookCommand: string,
): Promise<DoctorRow> {
  const label = displayPath(edit.file, roots);
  const what = edit.kind === 'hook' ? 'stop hook' : 'MCP server';
  const row = { agent, scope, file: label, what } as const;
  const { text, existed } = await readTextOrEmpty(edit.file);
  if (!existed) return { ...row, state: 'no file' };
  try {
    switch (edit.kind) {
      case 'hook':
        return { ...row, state: hasHook(text, edit, label) ? 'installed' : 'missing', detail: hookCommand };
      case 'json-mcp':
        return { ...row, state: jsonEntry(text, edit.path, label) === undefined ? 'missing' : 'installed' };
      case 'toml-mcp':
        return { ...row, state: hasTable(text, edit.table, label) ? 'installed' : 'missing' };
    }
  } catch (error) {
    return { ...row, state: 'unreadable', detail: errorMessage(error) };
  }
}

/**
 * Whether Codex runs the installed hook: asked of `codex app-server` (it knows the hook's current hash, so a trust
 * recorded before the entry changed counts for nothing); without codex, read from `[hooks.state]` in config.toml.
 */
async function inspectCodexTrust(input: {
  scope: InstallScope;
  hook: ConfigEdit & { kind: 'hook' };
  roots: ScopeRoots;
  hookCommand: string;
  options: DoctorOptions;
}): Promise<DoctorRow> {
  const { scope, hook, roots, hookCommand, options } = input;
  const configFile = join(roots.home, '.codex', 'config.toml');
  const row = { agent: 'codex', scope, file: displayPath(configFile, roots), what: 'hook trust' } as const;
  const hooks = await readTextOrEmpty(hook.file);
  const position = hooks.existed ? hookPosition(hooks.text, hook, hookCommand, hook.file) : null;
  if (!position) return { ...row, state: 'missing', detail: 'no hook to trust' };
  const key = `${hook.file}:stop:${position.group}:${position.handler}`;
  const listed = await listCodexHooks({
    cwd: roots.repoRoot ?? roots.home,
    env: options.env,
    timeoutMs: options.codexTimeoutMs ?? DOCTOR_CODEX_TIMEOUT_MS,
  });
  const entry = listed.kind === 'ok' ? listed.hooks.find((candidate) => candidate.key === key) : undefined;
  if (entry) return { ...row, state: entry.trustStatus === 'trusted' ? 'installed' : 'not trusted', detail: key };
  const config = await readTextOrEmpty(configFile);
  if (!config.existed) return { ...row, state: 'not trusted', detail: key };
  try {
    return {
      ...row,
      state: hasTable(config.text, ['hooks', 'state', key], row.file) ? 'installed' : 'not trusted',
      detail: key,
    };
  } catch (error) {
    return { ...row, state: 'unreadable', detail: errorMessage(error) };
  }
}

/** What a state means for the user, where the bare word would not say it. */
function stateText(row: DoctorRow): string {
  if (row.state === 'not trusted') {
    return 'NOT TRUSTED: Codex ignores this hook (rerun `tollgate install codex`, or trust it in codex /hooks)';
  }
  return row.state.padEnd(9);
}

export function renderDoctor(rows: readonly DoctorRow[]): string {
  const lines: string[] = [];
  for (const agent of [...new Set(rows.map((row) => row.agent))]) {
    lines.push(agent);
    for (const row of rows.filter((candidate) => candidate.agent === agent)) {
      const detail = row.state === 'unreadable' && row.detail ? `: ${row.detail}` : '';
      lines.push(`  ${row.scope.padEnd(7)} ${row.what.padEnd(10)} ${stateText(row)} ${row.file}${detail}`);
    }
  }
  const missing = rows.every((row) => row.state !== 'installed');
  if (missing) lines.push('', 'Nothing installed yet: `tollgate install claude` (or codex, copilot, cursor, gemini).');
  return `${lines.join('\n')}\n`;
}
