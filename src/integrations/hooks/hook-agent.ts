import type { InstallRecord } from './install-manifest.js';

/**
 * What tollgate knows about one agent's hooks: how its stop payload looks, what it must get back, and where its
 * config files are. One file per agent (`claude.ts`, …); `index.ts` lists them.
 */

/** The key every `tollgate install` registers the MCP server under (`mcpServers.tollgate`, `mcp_servers.tollgate`). */
export const MCP_SERVER_KEY = 'tollgate';

/** The fields of a stop payload the hook decides on, whatever the agent called them. */
export interface StopPayload {
  sessionId: string | null;
  /** The project directory the agent works in. */
  cwd: string | null;
  /** The agent says it is already continuing because of a stop hook (`stop_hook_active` and kin). */
  loopActive: boolean;
  /** Cursor's count of follow-ups so far in this loop. */
  loopCount: number | null;
  /** The person stopped the agent (Cursor's `status: "aborted"`) or it ended on an error: never answer with a follow-up. */
  userStopped?: boolean;
}

export type InstallScope = 'project' | 'user';

/**
 * The stop hook's time limit that `install` writes for every agent whose config has one: long enough that a loaded
 * machine, a slow git or the hook's own run of `hooks.stop.validators` still ends in a decision, since a hook that
 * runs out of time blocks (validation pending) rather than letting an unvalidated change through.
 */
export const STOP_HOOK_TIMEOUT_MS = 10 * 60_000;

/** Where a scope's files are. */
export interface ScopeRoots {
  repoRoot: string | null;
  home: string;
}

/** A hook handler to add to an agent's config, and how to find it again. */
export interface HookEdit {
  kind: 'hook';
  file: string;
  /** `nested`: event → [{ hooks: [handler] }] (Claude, Codex, Gemini); `flat`: event → [handler] (Cursor, Copilot). */
  layout: 'nested' | 'flat';
  /** Path of the events object inside the file (`["hooks"]`). */
  eventsPath: string[];
  event: string;
  handler: Record<string, unknown>;
  /** Keys set at the top level when the file is created (Cursor's and Copilot's `version: 1`). */
  fileDefaults?: Record<string, unknown>;
}

/** An MCP server entry under a JSON object key. */
export interface JsonMcpEdit {
  kind: 'json-mcp';
  file: string;
  /** Path of the entry (`["mcpServers", "tollgate"]`). */
  path: string[];
  value: Record<string, unknown>;
}

/** An MCP server table in a TOML file (Codex). */
export interface TomlMcpEdit {
  kind: 'toml-mcp';
  file: string;
  /** Dotted table name (`mcp_servers.tollgate`). */
  table: string[];
  values: Record<string, string | number | string[]>;
}

export type ConfigEdit = HookEdit | JsonMcpEdit | TomlMcpEdit;

export interface InstallCommands {
  /** `tollgate hook stop --agent <name>` (or with the `--bin` given to install). */
  hookCommand: string;
  /** The MCP server's executable and arguments. */
  mcpCommand: string;
  mcpArgs: string[];
  /**
   * `TOLLGATE_USE_<NAME>` for every validator name and alias, from the validator registry (which the stop hook's fast
   * path, and so the hook agents' modules, do not load). They change the effective config, and so the hash every
   * stored result carries.
   */
  validatorSwitches: readonly string[];
}

/** `Name` is the agent's literal name: the registry (`index.ts`) derives the list of hook agents from it. */
export interface HookAgent<Name extends string = string> {
  name: Name;
  title: string;
  /** The agent's stop event name in its config. */
  stopEvent: string;
  /** The agent's own limit on consecutive blocks (null: none, so ours must stop the loop). */
  blockCap: number | null;
  /**
   * The time limit `install` gives the stop hook in the agent's config (its handler's timeout field). The hook answers
   * before it (stop-deadline.ts): an agent that kills a hook at its limit treats that as an error and lets the stop through.
   */
  hookTimeoutMs: number;
  /** Does a payload (already parsed JSON) come from this agent? Used when `--agent` is not given. */
  matches(payload: Record<string, unknown>): boolean;
  /**
   * Where `matches` is tried when `--agent` is not given: lowest first, so the most distinctive payloads are claimed
   * before generic ones. The agent with the highest rank also takes any payload no one matches.
   */
  detectionRank: number;
  readPayload(payload: Record<string, unknown>): StopPayload;
  /** The exact JSON that blocks the stop, with only keys the agent documents. */
  block(reason: string): Record<string, unknown>;
  /**
   * How the agent's model finds an MCP tool its CLI defers behind a tool search (the tool's name in the agent's own
   * namespace), as measured against the agent; absent where that is not verified, and the reason then says to search.
   */
  findDeferredTool?(server: string, tool: string): string;
  /** The exact JSON that lets the agent stop; `note` is shown to the user where the agent has a field for it. */
  allow(note?: string): Record<string, unknown>;
  /** The edits `tollgate install <agent>` makes, per scope; `notes` say what could not be done in that scope. */
  configEdits(
    scope: InstallScope,
    roots: ScopeRoots,
    commands: InstallCommands,
  ): { edits: ConfigEdit[]; notes: string[] };
}

/** What an agent's step after install (install-steps.ts) gets: what `install` wrote, how to write more, and where to say what it did. */
export interface InstallStep {
  scope: InstallScope;
  roots: ScopeRoots;
  commands: InstallCommands;
  /** The edits of `configEdits`, already written. */
  edits: readonly ConfigEdit[];
  env: NodeJS.ProcessEnv;
  /** The home whose user-level files are edited. */
  home: string;
  /** How long to wait for the agent's own CLI, when the step asks it something. */
  timeoutMs?: number;
  /** A path as the report shows it. */
  show(path: string): string;
  /** Writes a config file, backing it up before its first change. */
  write(path: string, text: string, existed: boolean): Promise<void>;
  /** A line of the command's report (the agent and scope are put in front). */
  report(line: string): void;
  /** Something the agent needs that could not be done, with the exact next step: the install exits non-zero. */
  notInEffect(line: string): void;
  /** A line on stderr while something slow is under way. */
  progress(line: string): void;
  /** What `uninstall` undoes: add a record for each addition. */
  manifest: InstallRecord[];
}

export function stringField(payload: Record<string, unknown>, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = payload[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return null;
}

export function booleanField(payload: Record<string, unknown>, ...keys: string[]): boolean {
  return keys.some((key) => payload[key] === true);
}

/** The snake_case stop payload Claude Code, Codex and Gemini CLI share. */
export function readSnakeCasePayload(payload: Record<string, unknown>): StopPayload {
  return {
    sessionId: stringField(payload, 'session_id'),
    cwd: stringField(payload, 'cwd'),
    loopActive: booleanField(payload, 'stop_hook_active'),
    loopCount: null,
  };
}

/** `{ decision: "block", reason }`: the block reply of every agent but Cursor. */
export function blockWithDecision(reason: string): Record<string, unknown> {
  return { decision: 'block', reason };
}

/** Allows the stop; the note, if any, goes in `systemMessage`, which the agent shows to the user. */
export function allowWithSystemMessage(note?: string): Record<string, unknown> {
  return note ? { systemMessage: note } : {};
}
