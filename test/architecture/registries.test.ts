import { Command } from 'commander';
import { beforeAll, describe, expect, test } from 'vitest';
import { AGENT_NAMES, agentAdapters } from '../../src/agents/index.js';
import { registrationsFor } from '../../src/cli/commands/by-name.js';
import { stopHookAgentFromArgv } from '../../src/cli/fast-path.js';
import { formatFlag } from '../../src/cli/flags.js';
import { loadHelpNames } from '../../src/cli/help-names.js';
import { runFlags } from '../../src/cli/run-flags.js';
import { useVariableFor } from '../../src/core/config/env-overrides.js';
import { lookUpRegistries } from '../../src/core/config/registries.js';
import { buildConfigSchema } from '../../src/core/config/schema.js';
import { codexHooks } from '../../src/integrations/hooks/codex.js';
import { detectAgent, detectionOrder, HOOK_AGENTS, hookAgents } from '../../src/integrations/hooks/index.js';
import { installCommands } from '../../src/integrations/hooks/install.js';
import { REPORT_FORMATS } from '../../src/report/index.js';
import { validators } from '../../src/validators/index.js';
import { registriesWith } from '../support/registries.js';

/** Every command's register functions: what a command line that names no command loads. */
const commands = await registrationsFor([]);

/**
 * Each list of names is declared once, by its registry, and everything else reads it. These tests list what each
 * registry drives, so adding an agent CLI, a hook agent, an output format or a validator stays a matter of one file
 * and one registry line (docs/architecture.md has the checklists).
 */
beforeAll(loadHelpNames);

function program(): Command {
  const root = new Command('tollgate').exitOverride();
  for (const register of commands) register(root);
  return root;
}

function helpOf(...path: string[]): string {
  let command = program();
  for (const name of path) command = command.commands.find((sub) => sub.name() === name)!;
  return command.helpInformation();
}

/** A sample stop payload per hook agent, as each one documents it. */
const STOP_PAYLOADS: Record<string, Record<string, unknown>> = {
  claude: { hook_event_name: 'Stop', session_id: 's1', cwd: '/repo', stop_hook_active: false },
  codex: { hook_event_name: 'Stop', session_id: 's1', turn_id: 't1', cwd: '/repo', stop_hook_active: false },
  copilot: { sessionId: 's1', cwd: '/repo', stopHookActive: false },
  cursor: { conversation_id: 'c1', workspace_roots: ['/repo'], status: 'completed', loop_count: 0 },
  gemini: { hook_event_name: 'AfterAgent', session_id: 's1', cwd: '/repo' },
};

describe('the agent CLI registry (src/agents/index.ts) drives', () => {
  test('the agent names', () => {
    expect(AGENT_NAMES).toEqual(agentAdapters.map((adapter) => adapter.name));
    expect(new Set(AGENT_NAMES).size).toBe(AGENT_NAMES.length);
  });

  test('the config schema: alerts.agents, alerts.adapters and code_review.cliPreference', async () => {
    const schema = buildConfigSchema(await lookUpRegistries());
    const defaults = schema.parse({}) as unknown as Record<string, Record<string, unknown>>;
    expect(defaults.alerts!.agents).toEqual(AGENT_NAMES);
    expect(defaults.code_review!.cliPreference).toEqual(AGENT_NAMES);
    for (const name of AGENT_NAMES) {
      expect(schema.safeParse({ alerts: { agents: [name], adapters: { [name]: {} } } }).success).toBe(true);
    }
    expect(schema.safeParse({ alerts: { agents: ['not-an-agent'] } }).success).toBe(false);
  });

  test('a new name reaches the core schema through the registry alone', () => {
    const grown = buildConfigSchema({ ...registriesWith(validators), agentNames: [...AGENT_NAMES, 'newcli'] });
    expect(grown.safeParse({ alerts: { agents: ['newcli'] } }).success).toBe(true);
  });

  test('the help of validate-alert --agent and of agents', () => {
    for (const help of [helpOf('validate-alert'), helpOf('agents')]) {
      for (const name of AGENT_NAMES) expect(help).toContain(name);
    }
  });
});

describe('the hook agent registry (src/integrations/hooks/index.ts) drives', () => {
  test('the hook agent names', () => {
    expect(HOOK_AGENTS).toEqual(hookAgents.map((agent) => agent.name));
  });

  test('hook stop --agent, its fast path, install and uninstall', () => {
    const help = [helpOf('hook', 'stop'), helpOf('install'), helpOf('uninstall')];
    for (const name of HOOK_AGENTS) {
      for (const text of help) expect(text).toContain(name);
      expect(stopHookAgentFromArgv(['hook', 'stop', '--agent', name])).toEqual({ agent: name });
    }
    expect(stopHookAgentFromArgv(['hook', 'stop', '--agent', 'nobody'])).toBeNull();
  });

  test('payload detection: every agent is tried in its rank order and claims its own payload', () => {
    expect(Object.keys(STOP_PAYLOADS).sort()).toEqual([...HOOK_AGENTS].sort());
    const ranks = detectionOrder.map((agent) => agent.detectionRank);
    expect(new Set(ranks).size).toBe(ranks.length);
    for (const name of HOOK_AGENTS) expect(detectAgent(STOP_PAYLOADS[name]!).name).toBe(name);
    // The most generic format (last in rank) takes what no one claims.
    expect(detectAgent({}).name).toBe(detectionOrder.at(-1)!.name);
  });
});

describe('the report renderer registry (src/report/index.ts) drives', () => {
  test('--format, output.format and their help', async () => {
    const schema = buildConfigSchema(await lookUpRegistries());
    const help = helpOf('run');
    for (const format of REPORT_FORMATS) {
      expect(formatFlag.safeParse(format).success).toBe(true);
      expect(runFlags.safeParse({ format }).success).toBe(true);
      expect(schema.safeParse({ output: { format } }).success).toBe(true);
      expect(help).toContain(format);
    }
    expect(formatFlag.safeParse('xml').success).toBe(false);
    expect(schema.safeParse({ output: { format: 'xml' } }).success).toBe(false);
  });
});

describe('the validator registry (src/validators/index.ts) drives', () => {
  test('config sections and switches, and the --only/--skip help', async () => {
    const schema = buildConfigSchema(await lookUpRegistries());
    const help = helpOf('run');
    for (const tool of validators) {
      expect(Object.keys(schema.shape)).toContain(tool.configKey);
      expect(schema.safeParse({ validation: { [tool.name]: { enabled: true } } }).success).toBe(true);
      expect(help).toContain(tool.name);
    }
  });

  test("the TOLLGATE_USE_<NAME> switches Codex forwards to tollgate's MCP server", async () => {
    const { edits } = codexHooks.configEdits('user', { home: '/home', repoRoot: null }, await installCommands('codex'));
    const server = edits.find((edit) => edit.kind === 'toml-mcp');
    for (const tool of validators) {
      for (const name of [tool.name, ...(tool.aliases ?? [])]) {
        expect(server?.values.env_vars).toContain(useVariableFor(name));
      }
    }
  });
});
