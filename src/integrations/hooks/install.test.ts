import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { diagnoseInstalls, renderDoctor } from './doctor.js';
import { InstallNotInEffectError, installAgent, uninstallAgent } from './install.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(async () => {
  await repo.cleanup();
});

const fakeCodexDir = fileURLToPath(new URL('../../../test/fixtures/hooks/fake-codex', import.meta.url));
/** PATH with node but without any real agent CLI; `withCodex` adds the fake `codex`. */
function env(withCodex = false): NodeJS.ProcessEnv {
  const path = [withCodex ? fakeCodexDir : null, dirname(process.execPath), '/usr/bin', '/bin']
    .filter(Boolean)
    .join(':');
  return { ...repo.env, PATH: path };
}

/**
 * How long the fake `codex app-server` (a Node start) may take to answer, scaled by the load: a fixed 5 s failed the
 * trust round trip at load 25. The test of a server that never answers keeps its fixed limit: that wait is under test.
 */
const CODEX_ANSWER_BUDGET_MS = timeBudget(30_000);

const options = (
  agent: 'claude' | 'codex' | 'copilot' | 'cursor' | 'gemini',
  scope: 'project' | 'user' = 'project',
  withCodex = false,
) => ({
  agent,
  scope,
  cwd: repo.root,
  env: env(withCodex),
  home: repo.home,
  codexTimeoutMs: CODEX_ANSWER_BUDGET_MS,
});

const read = (path: string) => readFile(path, 'utf8');

/** Where the state key is, as Gemini CLI's server and hook entries carry it (Gemini's syntax, not a template). */
const KEY_LOCATION = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Gemini CLI's own `${NAME:-}` syntax
  XDG_STATE_HOME: '${XDG_STATE_HOME:-}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Gemini CLI's own `${NAME:-}` syntax
  TOLLGATE_STATE_SIGNER_PATH: '${TOLLGATE_STATE_SIGNER_PATH:-}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Gemini CLI's own `${NAME:-}` syntax
  TOLLGATE_STATE_KEY_FILE: '${TOLLGATE_STATE_KEY_FILE:-}',
};

/** Claude Code leaves a project's MCP servers out until the user approves them: install says so, and how. */
const CLAUDE_APPROVAL =
  'claude (project): note: Claude Code starts project .mcp.json servers as "Pending approval": run `claude` and approve the tollgate server, or add it to .claude/settings.local.json: {"enabledMcpjsonServers": ["tollgate"]}. Until then the agent has no tollgate tools, and the stop hook still blocks it.';

const CLAUDE_SETTINGS = `{
  // team settings: keep this comment
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "./scripts/notify.sh" } ] }
    ],
    "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "guard" } ] } ]
  }
}
`;

describe('tollgate install / uninstall', () => {
  test('gemini --project into no settings: one file created for two entries, nothing backed up, both undone', async () => {
    const lines = await installAgent(options('gemini'));
    expect(lines.filter((line) => line.startsWith('backed up'))).toEqual([]);
    expect(existsSync(join(repo.home, '.tollgate', 'backups'))).toBe(false);
    const removed = await uninstallAgent(options('gemini'));
    expect(removed.filter((line) => line.startsWith('backed up'))).toHaveLength(1);
    expect(existsSync(join(repo.root, '.gemini', 'settings.json'))).toBe(false);
  });

  test('claude --project: merges into a settings file with comments and other hooks, and round-trips byte for byte', async () => {
    await repo.write('.claude/settings.json', CLAUDE_SETTINGS);
    const lines = await installAgent(options('claude'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^backed up \.claude\/settings\.json to ~\/\.tollgate\/backups\/\d{8}T\d{6}Z\/\.claude-settings\.json$/,
      ),
      'claude (project): added the Stop hook `tollgate hook stop --agent claude` to .claude/settings.json',
      'claude (project): added the tollgate MCP server to .mcp.json',
      CLAUDE_APPROVAL,
    ]);
    const settings = await read(join(repo.root, '.claude/settings.json'));
    expect(settings).toContain('// team settings: keep this comment');
    expect(settings).toContain('./scripts/notify.sh');
    expect(settings).toContain('"command": "tollgate hook stop --agent claude"');
    expect(JSON.parse(settings.replace('// team settings: keep this comment', '')).hooks.Stop[1]).toEqual({
      hooks: [{ type: 'command', command: 'tollgate hook stop --agent claude', timeout: 600 }],
    });
    expect(JSON.parse(await read(join(repo.root, '.mcp.json')))).toEqual({
      mcpServers: { tollgate: { type: 'stdio', command: 'tollgate', args: ['mcp'] } },
    });
    // Twice: nothing is duplicated.
    expect(await installAgent(options('claude'))).toEqual([
      'claude (project): .claude/settings.json already runs `tollgate hook stop --agent claude`; left as is',
      'claude (project): .mcp.json already has an MCP server named "tollgate"; left as is',
      CLAUDE_APPROVAL,
    ]);
    expect(
      (await diagnoseInstalls({ cwd: repo.root, env: env(), home: repo.home })).filter(
        (row) => row.state === 'installed',
      ),
    ).toEqual([
      {
        agent: 'claude',
        scope: 'project',
        file: '.claude/settings.json',
        what: 'stop hook',
        state: 'installed',
        detail: 'tollgate hook stop --agent claude',
      },
      { agent: 'claude', scope: 'project', file: '.mcp.json', what: 'MCP server', state: 'installed' },
    ]);
    const removed = await uninstallAgent(options('claude'));
    expect(removed.filter((line) => !line.startsWith('backed up'))).toEqual([
      'claude (project): removed .mcp.json (tollgate created it)',
      'claude (project): removed the Stop hook `tollgate hook stop --agent claude` from .claude/settings.json',
    ]);
    expect(await read(join(repo.root, '.claude/settings.json'))).toBe(CLAUDE_SETTINGS);
    expect(existsSync(join(repo.root, '.mcp.json'))).toBe(false);
    expect(await uninstallAgent(options('claude'))).toEqual([
      'claude (project): nothing recorded by `tollgate install claude`; nothing removed',
    ]);
  });

  test('an installed hook with a shorter timeout gets the one the hook answers inside (and keeps its place)', async () => {
    const old =
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "tollgate hook stop --agent claude", "timeout": 120 } ] }\n    ]\n  }\n}\n';
    await repo.write('.claude/settings.json', old);
    const lines = await installAgent(options('claude'));
    expect(lines).toContain(
      'claude (project): .claude/settings.json already runs `tollgate hook stop --agent claude`; raised its timeout to 600 s (the hook answers just inside it)',
    );
    expect(await read(join(repo.root, '.claude/settings.json'))).toBe(old.replace('"timeout": 120', '"timeout": 600'));
    // Once raised, left as is.
    expect(await installAgent(options('claude'))).toContain(
      'claude (project): .claude/settings.json already runs `tollgate hook stop --agent claude`; left as is',
    );
  });

  test('cursor --project: creates its files in its own format and deletes them again', async () => {
    await installAgent(options('cursor'));
    expect(JSON.parse(await read(join(repo.root, '.cursor/hooks.json')))).toEqual({
      version: 1,
      hooks: { stop: [{ command: 'tollgate hook stop --agent cursor', timeout: 600 }] },
    });
    expect(JSON.parse(await read(join(repo.root, '.cursor/mcp.json')))).toEqual({
      mcpServers: { tollgate: { command: 'tollgate', args: ['mcp'] } },
    });
    expect(await uninstallAgent(options('cursor'))).toContain(
      'cursor (project): removed the empty folder .cursor (tollgate created it)',
    );
    expect(existsSync(join(repo.root, '.cursor'))).toBe(false);
  });

  test('uninstall leaves a folder it created when something else now lives in it', async () => {
    await installAgent(options('cursor'));
    await repo.write('.cursor/rules.md', 'keep me\n');
    await uninstallAgent(options('cursor'));
    expect(await readdir(join(repo.root, '.cursor'))).toEqual(['rules.md']);
  });

  test('gemini --user: hook (timeout in ms) and MCP server in one settings.json, round trip', async () => {
    const original = '{\n\t"theme": "GitHub",\n\t"mcpServers": {\n\t\t"other": { "command": "other-mcp" }\n\t}\n}\n';
    await repo.write('../' + repo.home.split('/').at(-1) + '/.gemini/settings.json', original);
    const lines = await installAgent(options('gemini', 'user'));
    expect(lines.at(-1)).toBe(
      'gemini (user): note: Gemini CLI disables MCP servers in untrusted folders, this user-level one included, while the stop hook still runs: trust each project folder when Gemini CLI asks (headless: --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true), or the agent can only validate with `tollgate run`.',
    );
    const settings = JSON.parse(await read(join(repo.home, '.gemini/settings.json')));
    expect(settings.hooks).toEqual({
      AfterAgent: [
        {
          hooks: [
            {
              type: 'command',
              name: 'tollgate',
              command: 'tollgate hook stop --agent gemini',
              timeout: 600000,
              env: KEY_LOCATION,
            },
          ],
        },
      ],
    });
    expect(Object.keys(settings.mcpServers)).toEqual(['other', 'tollgate']);
    // Gemini CLI expands these from its own environment, before it filters what reaches the server and the hook.
    expect(settings.mcpServers.tollgate.env).toEqual(KEY_LOCATION);
    expect(await read(join(repo.home, '.gemini/settings.json'))).toContain('\n\t\t"tollgate": {');
    await uninstallAgent(options('gemini', 'user'));
    expect(await read(join(repo.home, '.gemini/settings.json'))).toBe(original);
  });

  test('copilot --project: an agentStop hook file with bash and powershell, and the server in .github/mcp.json', async () => {
    const lines = await installAgent(options('copilot'));
    expect(lines).toEqual([
      'copilot (project): added the agentStop hook `tollgate hook stop --agent copilot` to .github/hooks/tollgate.json',
      'copilot (project): added the tollgate MCP server to .github/mcp.json',
      'copilot (project): note: Copilot CLI loads workspace MCP servers (.github/mcp.json) and hooks only in a folder you have trusted.',
    ]);
    expect(JSON.parse(await read(join(repo.root, '.github/mcp.json')))).toEqual({
      mcpServers: { tollgate: { type: 'local', command: 'tollgate', args: ['mcp'], tools: ['*'] } },
    });
    expect(JSON.parse(await read(join(repo.root, '.github/hooks/tollgate.json')))).toEqual({
      version: 1,
      hooks: {
        agentStop: [
          {
            type: 'command',
            bash: 'tollgate hook stop --agent copilot',
            powershell: 'tollgate hook stop --agent copilot',
            timeoutSec: 600,
          },
        ],
      },
    });
    await uninstallAgent(options('copilot'));
    expect(existsSync(join(repo.root, '.github/mcp.json'))).toBe(false);
    expect(existsSync(join(repo.root, '.github/hooks/tollgate.json'))).toBe(false);
  });

  test('copilot --project keeps an existing .github/mcp.json byte for byte across install and uninstall', async () => {
    const mine =
      '{\n  // shared servers\n  "mcpServers": { "docs": { "type": "local", "command": "docs-mcp", "tools": ["*"] } }\n}\n';
    await repo.write('.github/mcp.json', mine);
    await installAgent(options('copilot'));
    const merged = JSON.parse((await read(join(repo.root, '.github/mcp.json'))).replace('// shared servers', ''));
    expect(Object.keys(merged.mcpServers)).toEqual(['docs', 'tollgate']);
    await uninstallAgent(options('copilot'));
    expect(await read(join(repo.root, '.github/mcp.json'))).toBe(mine);
  });

  test('an MCP server the user already named tollgate is neither replaced nor removed', async () => {
    const mine = '{ "mcpServers": { "tollgate": { "command": "/opt/tollgate/bin/tollgate", "args": ["mcp"] } } }\n';
    await repo.write('.cursor/mcp.json', mine);
    await installAgent(options('cursor'));
    await uninstallAgent(options('cursor'));
    expect(await read(join(repo.root, '.cursor/mcp.json'))).toBe(mine);
  });

  test('a config file that is not JSON: one line naming file:line:col, nothing written', async () => {
    await repo.write('.claude/settings.json', '{ "hooks": { ]\n');
    await expect(installAgent(options('claude'))).rejects.toThrow(
      '.claude/settings.json:1:14 not valid JSON (PropertyNameExpected); fix the file, then rerun',
    );
  });

  test('codex --user: MCP table and the hook trusted with the hash codex app-server reports; round trip', async () => {
    const config = '# my codex config\nmodel = "gpt-5.5-codex"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
    await repo.write(`../${repo.home.split('/').at(-1)}/.codex/config.toml`, config);
    const lines = await installAgent(options('codex', 'user', true));
    expect(lines.filter((line) => !line.startsWith('backed up'))).toEqual([
      'codex (user): added the Stop hook `tollgate hook stop --agent codex` to ~/.codex/hooks.json',
      'codex (user): added the tollgate MCP server to ~/.codex/config.toml',
      'codex (user): trusted the Stop hook in ~/.codex/config.toml (hash from codex app-server)',
    ]);
    const toml = await read(join(repo.home, '.codex/config.toml'));
    expect(toml.startsWith(config)).toBe(true);
    expect(toml).toContain(
      '[mcp_servers.tollgate]\ncommand = "tollgate"\nargs = ["mcp"]\nenv_vars = ["XDG_STATE_HOME", "TOLLGATE_STATE_SIGNER_PATH", "TOLLGATE_STATE_KEY_FILE", "TOLLGATE_CONFIG", "TOLLGATE_POLICY", "TOLLGATE_USE_ADVISORIES", "TOLLGATE_USE_CHECKS", "TOLLGATE_USE_CODE_REVIEW", "TOLLGATE_USE_REVIEW", "TOLLGATE_USE_SECRETS", "TOLLGATE_USE_STATIC_ANALYSIS", "TOLLGATE_USE_SARIF"]\ntool_timeout_sec = 900\n',
    );
    expect(toml).toMatch(
      new RegExp(
        `\\[hooks\\.state\\."${join(repo.home, '.codex/hooks.json').replaceAll('.', '\\.')}:stop:0:0"\\]\\ntrusted_hash = "sha256:[0-9a-f]{64}"\\n`,
      ),
    );
    expect(await installAgent(options('codex', 'user', true))).toContain(
      'codex (user): Codex already trusts the Stop hook',
    );
    await uninstallAgent(options('codex', 'user', true));
    expect(await read(join(repo.home, '.codex/config.toml'))).toBe(config);
    expect(existsSync(join(repo.home, '.codex/hooks.json'))).toBe(false);
  });

  test('doctor: a Codex hook that Codex does not trust is NOT TRUSTED, asked of codex app-server', async () => {
    await expect(installAgent(options('codex', 'user'))).rejects.toThrow(InstallNotInEffectError);
    const trustRow = async (withCodex: boolean) =>
      (
        await diagnoseInstalls({
          cwd: repo.root,
          env: env(withCodex),
          home: repo.home,
          codexTimeoutMs: CODEX_ANSWER_BUDGET_MS,
        })
      ).find((row) => row.agent === 'codex' && row.scope === 'user' && row.what === 'hook trust');
    // Installed without codex on PATH: nothing trusted it.
    expect((await trustRow(false))?.state).toBe('not trusted');
    expect((await trustRow(true))?.state).toBe('not trusted');
    const rendered = renderDoctor(
      await diagnoseInstalls({
        cwd: repo.root,
        env: env(true),
        home: repo.home,
        codexTimeoutMs: CODEX_ANSWER_BUDGET_MS,
      }),
    );
    expect(rendered).toMatch(
      / {2}user {4}hook trust NOT TRUSTED: Codex ignores this hook \(rerun `tollgate install codex`/,
    );
    // Trusted by install (with codex on PATH): installed.
    await installAgent(options('codex', 'user', true));
    expect((await trustRow(true))?.state).toBe('installed');
    // A recorded trust whose hash is no longer the hook's: the table is there, but codex says it is not trusted.
    const configFile = join(repo.home, '.codex/config.toml');
    await writeFile(configFile, (await read(configFile)).replace(/sha256:[0-9a-f]{64}/, `sha256:${'0'.repeat(64)}`));
    expect((await trustRow(false))?.state).toBe('installed');
    expect((await trustRow(true))?.state).toBe('not trusted');
  });

  test('codex without codex on PATH: writes and records the files, then fails (exit 5) with the next step', async () => {
    const failure = await installAgent(options('codex', 'user')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InstallNotInEffectError);
    const error = failure as InstallNotInEffectError;
    expect(error.exitCode).toBe(5);
    expect(error.message).toBe(
      'codex (user): the Stop hook is NOT trusted: codex is not on PATH. Put codex on PATH, then: Codex skips the hook until it is trusted: rerun `tollgate install codex --user`, or start `codex`, open /hooks and trust `tollgate hook stop --agent codex`.',
    );
    expect(error.lines).toContain(
      'codex (user): added the Stop hook `tollgate hook stop --agent codex` to ~/.codex/hooks.json',
    );
    // Recorded all the same: uninstall removes it.
    await uninstallAgent(options('codex', 'user'));
    expect(existsSync(join(repo.home, '.codex/hooks.json'))).toBe(false);
  });

  test('codex app-server that never lists the hooks: waits its limit, saying so, then fails with the next step', async () => {
    const progress: string[] = [];
    const failure = await installAgent({
      ...options('codex', 'project', true),
      env: { ...env(true), FAKE_CODEX_HOOKS_LIST: 'never' },
      codexTimeoutMs: 16_000,
      progress: (line) => progress.push(line),
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      'codex (project): the Stop hook is NOT trusted: could not ask codex for its hash (codex app-server did not answer hooks/list within 16 s). Codex skips the hook until it is trusted: rerun `tollgate install codex`, or start `codex`, open /hooks and trust `tollgate hook stop --agent codex`.',
    );
    expect(progress).toEqual([
      'tollgate: waiting for `codex app-server` to list the hooks, to trust the Stop hook (15 s so far, at most 16 s)',
    ]);
  });
});
