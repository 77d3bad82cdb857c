import type { z } from 'zod';
import type { RepoChangeSet } from '../change-set/types.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import type { ProcessResult, RunProcessOptions } from '../process.js';
import type { ToolResult } from '../result.js';

/** What a tool may need that the permission policy (config `permissions`) can refuse. */
const PERMISSIONS = ['runCommands', 'spawnAgents', 'network', 'writeFiles'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Who reads a tool's result, and so how its next step is spelled: `mcp` for a call through the MCP server (the next
 * step is another tool call, `packages: […]`), `cli` for everything else (a command, `tollgate advisories check …`).
 */
export type ResultReader = 'cli' | 'mcp';

/** The remaining time a tool has. The pipeline aborts `signal` when it runs out. */
export interface Budget {
  readonly deadline: number;
  remainingMs(): number;
}

export interface ToolContext<Options, Input> {
  readonly repoRoot: string;
  readonly changeSet: RepoChangeSet;
  /** This tool's section of the effective config, parsed by its `optionsSchema`. */
  readonly options: Options;
  /** The call's input, parsed by its `inputSchema` (after any `preToolUse` hook modified it). */
  readonly input: Input;
  readonly signal: AbortSignal;
  readonly budget: Budget;
  /** This run's folder (`.tollgate/runs/<runId>/`): full logs and raw outputs go here, under a per-tool subfolder. */
  readonly artifactsDir: string;
  /** How many things (checks, reviewer slots) this tool may run at once (config `validation.concurrency`). */
  readonly concurrency: number;
  /**
   * Whether config `validation.skipTrivial` lets this tool skip on a trivial-change declaration. It comes from config,
   * never from the call's input, so an agent cannot waive its own review by declaring the change trivial.
   */
  readonly skipTrivial: boolean;
  /** The environment for child processes (tests point PATH at fakes through it). */
  readonly env: NodeJS.ProcessEnv;
  /** Who reads the result: a next step it names is spelled for them. Absent means the command line. */
  readonly reader?: ResultReader;
  /**
   * Config `permissions.network`, for a tool whose network use is optional (secret verification) and so not a
   * declared permission that would stop the tool. Absent means deny.
   */
  readonly network?: 'allow' | 'deny';
  /**
   * The policy the run judges by (docs/policy.md): read suppression files and baselines through `policy.read`, so a
   * change cannot clear its own findings by editing them. Absent only where no run built one (unit tests): then the
   * files are read as they are.
   */
  readonly policy?: EffectivePolicy;
  /**
   * Resolves once every other validator of the run has settled, so the tool runs alone (a check marked `exclusive`
   * for a timing-sensitive suite). Absent outside a run of several validators: then the tool is alone already.
   */
  whenAlone?(): Promise<void>;
  /**
   * Says that from here on this call reads nothing from the work tree but the snapshot's own content (every byte
   * checked against the snapshot's blob id) and starts nothing that could write to it: the check of the tree after the
   * validators (recheck-tree.ts) may then begin once every other validator has settled or said the same. Absent where
   * something still runs after the tool (a postToolUse hook) or outside a run.
   */
  doneWithWorkTree?(): void;
  /** Human-readable progress; recorded as an ephemeral `tool.execution_progress` event. */
  progress(message: string): void;
  /** `runProcess` with the tool's AbortSignal already attached. */
  runProcess(command: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessResult>;
}

/**
 * A validator's options schema ends in `.prefault({})` (`.prefault([])` for a list): an absent config section is then
 * parsed as `{}`, so every default inside applies. `.default({})` would hand out `{}` itself, defaults unapplied.
 */
export type OptionsSchemaWithDefaults = z.ZodPrefault<z.ZodType>;

/**
 * A validator declaration: one folder under `src/validators/<name>/` exports one of these. Everything else (its config
 * section, `TOLLGATE_USE_<NAME>`, `--only/--skip`, its row in the docs) is derived from it.
 */
export interface ToolDefinition<
  OptionsSchema extends OptionsSchemaWithDefaults = OptionsSchemaWithDefaults,
  InputSchema extends z.ZodType = z.ZodType,
> {
  /** snake_case tool name (`checks`, `code_review`, `secrets`). */
  readonly name: string;
  readonly title: string;
  /** Other names accepted for it in `TOLLGATE_USE_<NAME>`, `--only` and `--skip` (`review` for `code_review`). */
  readonly aliases?: readonly string[];
  /** Agent-facing: when to call it, what counts as trivial and what never does. */
  readonly description: string;
  /** Key of this tool's section at the top level of the config file (`checks`, `secrets`, …). */
  readonly configKey: string;
  /** Schema of that section, ending in `.prefault({})`, so an absent section parses to the defaults. */
  readonly optionsSchema: OptionsSchema;
  /** Schema of a call's input (PR title, trivial-change declaration, explicit paths, …). */
  readonly inputSchema: InputSchema;
  /** What the permission policy must allow before this tool runs. */
  readonly permissions: readonly Permission[];
  /** Whether the tool is on when the config says nothing. */
  readonly enabledByDefault: boolean;
  /**
   * For a call whose input narrows what the tool examines (explicit paths, explicit packages): a short description
   * of that scope. Such a result never stands in for a run over the whole change set. Absent or null: the whole change.
   */
  scopeOf?(input: z.output<InputSchema>): string | null;
  /**
   * For a tool whose network use is optional (secret verification), whether these options make it reach the network
   * when `permissions.network` allows. Told to MCP clients (`openWorldHint`); tools that declare `network` need none.
   */
  mayUseNetwork?(options: z.output<OptionsSchema>): boolean;
  /**
   * The tool examines the commits since the base, not only the tree (secrets): it runs when commits exist even if no
   * file differs, and its pass stands in for a later run only at the same HEAD.
   */
  readonly readsHistory?: boolean;
  /** With these options the tool waits, at some point, to run alone (`ToolContext.whenAlone`): it is started last. */
  mayWaitAlone?(options: z.output<OptionsSchema>): boolean;
  /**
   * Files whose content decides what this tool lets through (suppression lists, baselines), given its options:
   * repository-relative or absolute. Part of the policy that a change may not edit for itself (docs/policy.md).
   */
  policyFiles?(options: z.output<OptionsSchema>): readonly string[];
  run(ctx: ToolContext<z.output<OptionsSchema>, z.output<InputSchema>>): Promise<ToolResult>;
}

/** Helps inference when declaring a tool. */
export function defineTool<O extends OptionsSchemaWithDefaults, I extends z.ZodType>(
  definition: ToolDefinition<O, I>,
): ToolDefinition<O, I> {
  return definition;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every option and input type.
export type AnyToolDefinition = ToolDefinition<any, any>;
