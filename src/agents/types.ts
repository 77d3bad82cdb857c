/**
 * What an agent CLI adapter declares. An adapter only *describes* a CLI (how to call it read-only, how to read what it
 * prints); `run-agent.ts` spawns every one of them the same way, and `health.ts` probes them.
 */

import type { ThinkingBudget } from '../core/config/thinking-budget.js';

export { THINKING_BUDGETS, type ThinkingBudget } from '../core/config/thinking-budget.js';

/**
 * How the CLI is kept from changing the repository:
 * - `sandbox`: an OS-level read-only sandbox (Codex `--sandbox read-only`);
 * - `tool-allowlist`: only read-only tools exist (Claude `--tools`, Copilot `--available-tools` + `--deny-tool`);
 * - `read-only-mode`: the CLI's own read-only mode, enforced by its policy engine (Gemini `--approval-mode plan`,
 *   Cursor `--mode ask`, OpenCode's plan agent with every write permission denied);
 * - `none`: nothing; such an adapter must not exist.
 */
export type ReadOnlyMechanism = 'sandbox' | 'tool-allowlist' | 'read-only-mode' | 'none';

/** Per-adapter settings from config `code_review.adapters.<name>`. */
export interface AgentSettings {
  model?: string;
  thinkingBudget: ThinkingBudget;
  /** false: the reviewer gets no tool allow-list (Claude: no tools at all) and works from the prompt alone. */
  allowToolUse: boolean;
  /** Agentic turn cap, where the CLI has one (Claude). */
  maxTurns: number;
  /** Tool names for an analysis, where the CLI takes a list (Claude `--tools`); absent: the adapter's own list. */
  tools?: readonly string[];
}

/** What a CLI reported about one call: tokens, cost, turns and tool calls, where it reports them (else absent). */
export interface CallUsage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  turns?: number;
  toolCalls?: number;
}

/** What `reviewArgs` needs. Paths point into run-agent's private temp dir; nothing points into the repository. */
export interface ReviewArgsOptions extends AgentSettings {
  repoRoot: string;
  /** JSON Schema of the answer, as a file (Codex `--output-schema`). */
  schemaPath: string;
  /** The same schema inline (Claude `--json-schema`). */
  schemaJson: string;
  /** Where a CLI that can save its last message writes it (Codex `-o`). */
  answerPath: string;
  /** The prompt text, for CLIs that take it as an argument (`promptVia: 'argument'`). */
  prompt: string;
}

/**
 * What `analysisArgs` needs (validate-alert's analysis and challenge stages). The agent works in its own workspace
 * (the spawn cwd): it may write scripts, logs and a report there and run commands; it is never given the user's
 * checkout, only a copy inside the workspace.
 */
export interface AnalysisArgsOptions extends AgentSettings {
  /** Absolute path of the agent's own workspace: its cwd and the one place it is asked (or, with Codex, allowed) to write. */
  workspace: string;
  /** The prompt text, for CLIs that take it as an argument. */
  prompt: string;
  /** Where a CLI that can save its last message writes it (Codex `-o`). */
  answerPath: string;
  /** A UUID: the new session's id, or (with `resume`) the session to continue. Used where `analysisSession` is `resume`. */
  sessionId: string;
  /** Continue the session `sessionId` instead of starting one (a continuation prompt). */
  resume: boolean;
}

export type AgentFailureKind = 'usage_limit' | 'rate_limited' | 'not_logged_in';

/** What the CLI printed, read through its structured output mode. */
export type AgentOutput =
  /** The reviewer's final answer: text (to be parsed as the review JSON) or an already-parsed value. */
  | { kind: 'answer'; text: string; structured?: unknown }
  /** A structured error field the CLI reported (Claude `api_error_status`, Copilot `session.error`, Gemini `error`). */
  | { kind: 'failure'; failure: AgentFailureKind | 'error'; message: string }
  /** Nothing recognisable: the caller falls back to phrase matching on the raw text. */
  | { kind: 'unreadable'; message: string };

export interface RawAgentOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** Content of `answerPath` when the CLI wrote it, else null. */
  answerFile: string | null;
}

/** `Name` is the adapter's literal name: the registry (`index.ts`) derives the list of agent names from it. */
export interface AgentAdapter<Name extends string = string> {
  readonly name: Name;
  /** Product name for messages ("Claude Code"). */
  readonly title: string;
  /**
   * Variables the CLI sets in the environment of the commands it runs (`CLAUDECODE=1`), so that a command can tell no
   * person typed it (`agent-environment.ts`).
   */
  readonly environmentMarkers?: readonly string[];
  /** Executable looked up on PATH. */
  readonly bin: string;
  /** npm package that installs it, or null when it is not on npm (Cursor). */
  readonly npmPackage: string | null;
  /** The command that installs it, for `tool_unavailable` messages. */
  readonly installCommand: string;
  /** Versions whose `--help` the flags were checked against (`test/fixtures/agents/<name>/<version>/help.txt`). */
  readonly verifiedVersions: readonly string[];
  /** false when the flags come from documentation only and were never run (Cursor). */
  readonly verified: boolean;
  /** `howWithoutTools`: what holds instead when the settings turn tool use off (`allowToolUse: false`), if it differs. */
  readonly readOnly: { mechanism: ReadOnlyMechanism; how: string; howWithoutTools?: string };
  /** Availability probe (`--help`). */
  readonly probeArgs: readonly string[];
  /** When set, the probe's output must match, to tell the CLI from another with the same binary name (`agent`). */
  readonly probeExpect?: RegExp;
  readonly versionArgs: readonly string[];
  /** A cheap, offline "am I logged in?" check that exits non-zero when not (`codex login status`). */
  readonly authCheckArgs?: readonly string[];
  /** What the user runs to log in. */
  readonly loginCommand: string;
  /** Where the help text that lists `reviewArgs`' flags comes from (`['exec', '--help']` for Codex). */
  readonly helpArgs: readonly string[];
  /** Flags the CLI accepts but leaves out of `--help`, each with where that was verified. */
  readonly hiddenFlags?: Readonly<Record<string, string>>;
  /** How the prompt reaches the CLI. `argument` prompts are capped at `maxPromptBytes` (one argv string). */
  readonly promptVia: 'stdin' | 'argument';
  readonly maxPromptBytes?: number;
  /** Pure: the argv of one read-only, non-interactive review. */
  reviewArgs(options: ReviewArgsOptions): string[];
  /** Environment variables to set for the review (on top of the ones run-agent sets for every CLI). */
  reviewEnv(settings: AgentSettings): Record<string, string>;
  /**
   * Pure: the argv of one non-interactive analysis that may write into its workspace and run commands there
   * (validate-alert). Never used for code review.
   */
  analysisArgs(options: AnalysisArgsOptions): string[];
  /** Environment variables for an analysis (on top of the ones run-agent sets for every CLI). */
  analysisEnv(settings: AgentSettings): Record<string, string>;
  /**
   * How a continuation prompt reaches the same conversation: `resume` (the CLI takes a session id for a new session and
   * resumes it by id), or `reprompt` (a new run whose prompt carries the prior output).
   */
  readonly analysisSession: 'resume' | 'reprompt';
  /** Phrases (lower case, ASCII apostrophes) this CLI prints when a usage limit or quota is exhausted. */
  readonly usageLimitPhrases: readonly string[];
  /** Phrases of a transient rate limit. */
  readonly rateLimitPhrases: readonly string[];
  /** Phrases of "not logged in". */
  readonly notLoggedInPhrases: readonly string[];
  /** Pure: reads the CLI's output (its structured mode where it has one). */
  readOutput(output: RawAgentOutput): AgentOutput;
  /**
   * Pure: tokens, cost, turns and tool calls of one call, from the CLI's structured output, where it reports them
   * (`{}` for a CLI that reports none: say so in a comment, so that the omission is a decision).
   */
  usageOf(stdout: string): CallUsage;
  /**
   * Pure: the input of every tool call the CLI reported in its structured output (the command it ran, the file it
   * read), so what an agent actually read can be observed. Absent for CLIs whose output does not report tool calls.
   */
  toolInputsOf?(stdout: string): string[];
}
