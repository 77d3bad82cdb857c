import { z } from 'zod';
import { SEVERITIES } from '../finding.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import {
  DECLARED_VALIDATORS_KEY,
  type DeclaredValidators,
  declaredValidatorsSchema,
  RESERVED_VALIDATOR_NAMES,
} from './declared-validators.js';
import { durationSchema, lifetimeSchema, sizeSchema } from './duration.js';
import { THINKING_BUDGETS } from './thinking-budget.js';

const hookCommandSchema = z
  .object({
    run: z.string().min(1).describe('Shell command; gets the call as JSON on stdin and answers JSON on stdout.'),
    matcher: z.string().optional().describe('Regular expression on the tool name; omit to match every tool.'),
    timeout: durationSchema.default(30_000).describe('How long the hook may take, e.g. "10s".'),
  })
  .strict();
export type HookCommand = z.output<typeof hookCommandSchema>;

const decisionSchema = z.enum(['allow', 'deny']);

/**
 * The validators the stop hook runs itself by default: every one enabled by default, since only a run of every enabled
 * validator passes the gate (with `checks` and `secrets` alone, advisories and static analysis were always still
 * missing, and `run: true` blocked every stop). An agent review is slow and off by default: not in the list.
 */
const STOP_HOOK_VALIDATORS = ['checks', 'secrets', 'advisories', 'static_analysis'] as const;

/**
 * The names a config may use that other layers own. Each list is declared once, by the registry that owns it, and
 * the config schema, the flags and the help texts read it from there.
 */
export interface Registries {
  /** The validators (`src/validators/index.ts`): each one's config section and `validation.<name>` switch. */
  tools: readonly AnyToolDefinition[];
  /** The agent CLIs (`src/agents/index.ts`): `alerts.agents` and `alerts.adapters`. */
  agentNames: readonly string[];
  /** The run report formats (`src/report/index.ts`): `output.format`. */
  reportFormats: readonly string[];
  /**
   * Makes the registry entries of the validators a config declares (`validators:`); they join `tools` for that
   * config. Absent: a config may declare none (an embedding, a test).
   */
  declareTools?: (declared: DeclaredValidators) => readonly AnyToolDefinition[];
}

/** A `z.enum` over a registry's names (a registry always has at least one entry). */
function namesEnum(names: readonly string[]) {
  return z.enum(names as [string, ...string[]]);
}

/** Commands run around tool calls, and the stop hook's own settings. */
const hooksSection = z
  .object({
    preToolUse: z.array(hookCommandSchema).default([]),
    postToolUse: z.array(hookCommandSchema).default([]),
    postToolUseFailure: z.array(hookCommandSchema).default([]),
    stop: z
      .object({
        run: z
          .boolean()
          .default(false)
          .describe('Let `tollgate hook stop` run `validators` itself when the current change has no passing run.'),
        validators: z
          .array(z.string().min(1))
          .default([...STOP_HOOK_VALIDATORS])
          .describe('The fast validators the stop hook runs; only a run of every enabled validator passes the gate.'),
        timeout: durationSchema.default(60_000).describe('The stop hook\'s time limit for that run, e.g. "60s".'),
        onError: z
          .enum(['allow', 'block'])
          .default('allow')
          .describe(
            "When the stop hook itself fails (a bug, a broken config, state from a newer tollgate): allow the stop with a visible warning (the agents' convention), or block it. Not for a timeout: no decision in time always blocks (validation pending).",
          ),
      })
      .strict()
      .default({ run: false, validators: [...STOP_HOOK_VALIDATORS], timeout: 60_000, onError: 'allow' }),
  })
  .strict()
  .default({
    preToolUse: [],
    postToolUse: [],
    postToolUseFailure: [],
    stop: { run: false, validators: [...STOP_HOOK_VALIDATORS], timeout: 60_000, onError: 'allow' },
  });

/** What tools may do. */
const permissionsSection = z
  .object({
    runCommands: decisionSchema.default('allow').describe('May tools run commands (project checks, analyzers)?'),
    spawnAgents: decisionSchema.default('allow').describe('May tools spawn AI agent CLIs?'),
    network: decisionSchema.default('allow').describe('May tools use the network (advisory databases)?'),
    writeFiles: decisionSchema.default('deny').describe('May tools write outside .tollgate/ (redaction)?'),
  })
  .strict()
  .default({ runCommands: 'allow', spawnAgents: 'allow', network: 'allow', writeFiles: 'deny' });

/** Who may waive what, and for how long. */
const waiversSection = z
  .object({
    allow: z
      .array(z.enum(SEVERITIES))
      .default(['low', 'medium'])
      .describe('Severities an agent may waive without a person (a person at a terminal may waive any).'),
    expires: lifetimeSchema
      .optional()
      .describe('How long a new waiver holds unless `tollgate waive --expires` says otherwise, e.g. "30d".'),
  })
  .strict()
  .default({ allow: ['low', 'medium'] });

/** `tollgate comments` and `tollgate fix-comments`. */
const reviewCommentsSection = z
  .object({
    enabled: z.boolean().default(true).describe('Allow `tollgate comments` and `tollgate fix-comments`.'),
    includeAuthors: z
      .array(z.string().min(1))
      .default([])
      .describe('List only threads with a comment by one of these logins (`--author` replaces it).'),
    excludeAuthors: z.array(z.string().min(1)).default([]).describe('Never list threads started by these logins.'),
    includeOutdated: z.boolean().default(false).describe('List outdated threads too (`--include-outdated`).'),
    maxThreads: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(500)
      .describe('Threads read per scan; a PR with more is reported as an incomplete scan (blocked).'),
    autoReply: z.boolean().default(false).describe('fix-comments posts replies without --apply-replies.'),
    autoResolve: z
      .boolean()
      .default(false)
      .describe('fix-comments resolves without --apply-resolutions (only autoResolveClassifications).'),
    autoResolveClassifications: z
      .array(z.enum(['valid', 'invalid', 'stale', 'already_fixed']))
      .default([])
      .describe('Classifications fix-comments may resolve besides `valid`; `needs_human` is never resolved.'),
    requireChecksBeforeResolve: z
      .boolean()
      .default(true)
      .describe('Resolve only when the checks on the pushed commit passed (see checkEvidence).'),
    checkEvidence: z
      .enum(['local', 'remote', 'either'])
      .default('local')
      .describe(
        'What counts as passing checks: the last local `tollgate run` on the pushed commit, its GitHub check runs and statuses (`remote`), or either (`--evidence`).',
      ),
    requiredChecks: z
      .array(z.string().min(1))
      .default([])
      .describe('GitHub checks that must pass for remote evidence; empty: every reported check must pass.'),
    waitForChecks: durationSchema
      .optional()
      .describe(
        'How long fix-comments waits for running GitHub checks, e.g. "15m" (`--wait-checks`); default: no wait.',
      ),
    rateLimitFloor: z
      .number()
      .int()
      .min(0)
      .default(100)
      .describe('Stop before GitHub GraphQL points left fall below this.'),
    requestTimeout: durationSchema.default(30_000).describe('Time limit of one GitHub request, e.g. "30s".'),
    replyTemplate: z
      .string()
      .min(1)
      .optional()
      .describe('Repo-relative reply template; default: the bundled templates/review-reply.md.'),
  })
  .strict()
  .prefault({});

/** How the run report is written; `format` is one of the report renderers. */
function outputSection(reportFormats: readonly string[]) {
  return z
    .object({
      format: namesEnum(reportFormats).default('markdown'),
      file: z.string().optional().describe('Write the report here instead of stdout.'),
      maxOutputLines: z.number().int().min(1).default(40).describe('Lines of a failing check kept in the report.'),
      sarifChecks: z
        .boolean()
        .default(false)
        .describe('SARIF reports failed project checks as code scanning alerts too (default: annotations only).'),
      keepRuns: z
        .number()
        .int()
        .min(1)
        .default(50)
        .describe(
          'Run folders kept in .tollgate/runs/ (event logs, check logs); older ones are removed after each run, except those the state refers to.',
        ),
    })
    .strict()
    .default({ format: 'markdown', maxOutputLines: 40, sarifChecks: false, keepRuns: 50 });
}

/** `tollgate validate-alert`; the agents are the agent CLI registry's names. */
function alertsSection(agentNames: readonly string[]) {
  const agentName = namesEnum(agentNames);
  return z
    .object({
      analyses: z.number().int().min(1).max(10).default(3).describe('Competing analyses per alert (`--analyses`).'),
      agents: z
        .array(agentName)
        .min(1)
        .default([...agentNames])
        .describe('Agent CLIs in order of preference; analyses go round-robin over the healthy ones.'),
      minResponseLength: z
        .number()
        .int()
        .min(0)
        .default(500)
        .describe('A report shorter than this (characters) gets a continuation prompt.'),
      maxContinuationAttempts: z.number().int().min(0).max(5).default(2).describe('Continuation prompts per analysis.'),
      maxTurns: z.number().int().min(1).default(60).describe('Agentic turn cap per call, where the CLI has one.'),
      timeouts: z
        .object({
          analysis: durationSchema.default(1_800_000).describe('Per analysis, continuations included, e.g. "30m".'),
          challenge: durationSchema.default(600_000).describe('Per challenge.'),
          judge: durationSchema.default(300_000).describe('Per judge call.'),
        })
        .strict()
        .prefault({}),
      adapters: z
        .partialRecord(
          agentName,
          z
            .object({
              model: z.string().min(1).optional(),
              thinkingBudget: z.enum(THINKING_BUDGETS).default('medium'),
            })
            .strict(),
        )
        .default({})
        .describe('Per-CLI model and thinking budget for validate-alert.'),
    })
    .strict()
    .prefault({});
}

/** The sections tollgate itself owns; the names some settings take come from the registries. */
export function coreSectionsFor(registries: Omit<Registries, 'tools'>) {
  return {
    base: z
      .string()
      .min(1)
      .optional()
      .describe('Diff base (any git revision). Default: merge-base with the upstream or default branch, else HEAD.'),
    ignore: z
      .array(z.string())
      .default([])
      .describe('gitignore-syntax patterns of changed files no validator should see.'),
    hooks: hooksSection,
    permissions: permissionsSection,
    output: outputSection(registries.reportFormats),
    waivers: waiversSection,
    reviewComments: reviewCommentsSection,
    alerts: alertsSection(registries.agentNames),
    [DECLARED_VALIDATORS_KEY]: declaredValidatorsSchema,
  };
}

/** Validators whose silence would let a vulnerable dependency or a credential through: required unless said otherwise. */
const DEFAULT_REQUIRED: readonly string[] = ['advisories', 'secrets'];

const validationFields = {
  timeout: durationSchema.default(600_000).describe('Time budget for one run of all validators, e.g. "10m".'),
  concurrency: z.number().int().min(1).max(64).default(4).describe('How many validators (and checks) run at once.'),
  maxFileSize: sizeSchema.default(1_000_000).describe('Changed files larger than this are listed as skipped.'),
  skipTrivial: z
    .array(z.string())
    .default([])
    .describe('Tools that may skip when the caller declares the change trivial.'),
  required: z
    .array(z.string())
    .default([...DEFAULT_REQUIRED])
    .describe(
      'Enabled validators that must really run: one that is unavailable, unreachable, timed out or errored fails the run.',
    ),
  strict: z.boolean().default(false).describe('Every enabled validator is required (as `tollgate run --strict`).'),
};

/**
 * The whole config schema, composed from the core sections and each tool's declaration: the tool's own options live
 * in a top-level section named by its `configKey`, and its on/off switch at `validation.<name>.enabled`
 * (overridden by `TOLLGATE_USE_<NAME>=0|1`).
 */
export function buildConfigSchema(registries: Registries): ConfigSchema {
  const built = builtSchemas.get(registries.tools) ?? [];
  const known = built.find(
    (entry) => entry.agentNames === registries.agentNames && entry.reportFormats === registries.reportFormats,
  );
  if (known) return known.schema;
  const schema = composeConfigSchema(registries);
  builtSchemas.set(registries.tools, [
    ...built,
    { agentNames: registries.agentNames, reportFormats: registries.reportFormats, schema },
  ]);
  return schema;
}

/**
 * Schemas already built, by the registry lists they were built from (the same arrays, not equal ones): a schema is
 * immutable and a function of those lists alone, and composing one is most of what parsing a small config costs (a
 * run parses its config and the policy at the base; the in-process tests thousands of times).
 */
const builtSchemas = new WeakMap<
  readonly AnyToolDefinition[],
  Array<Pick<Registries, 'agentNames' | 'reportFormats'> & { schema: ConfigSchema }>
>();

function composeConfigSchema(registries: Registries) {
  const { tools } = registries;
  const toolSections: Record<string, z.ZodType> = {};
  const switches: Record<string, z.ZodType> = {};
  for (const tool of tools) {
    toolSections[tool.configKey] = tool.optionsSchema;
    switches[tool.name] = z
      .object({ enabled: z.boolean().default(tool.enabledByDefault).describe(`Run ${tool.title}.`) })
      .strict()
      .prefault({});
  }
  return z
    .object({
      ...coreSectionsFor(registries),
      validation: z
        .object({ ...validationFields, ...switches })
        .strict()
        .superRefine((validation, ctx) => {
          const names = tools.map((tool) => tool.name);
          validation.required.forEach((name, index) => {
            // The defaults may name validators a smaller registry (an embedding, a test) does not have: only a name
            // someone wrote can be a typo.
            if (!names.includes(name) && !DEFAULT_REQUIRED.includes(name)) {
              ctx.addIssue({
                code: 'custom',
                path: ['required', index],
                message: `unknown validator ${JSON.stringify(name)}; expected one of ${names.join(', ')}`,
              });
            }
          });
        })
        .prefault({}),
      ...toolSections,
    })
    .strict()
    .superRefine((config, ctx) => {
      // A declared validator's entry has the same schema as the section; only its name may clash with a built-in's.
      const builtIn = new Set(
        tools
          .filter((tool) => tool.configKey !== DECLARED_VALIDATORS_KEY)
          .flatMap((tool) => [tool.name, ...(tool.aliases ?? [])]),
      );
      for (const name of RESERVED_VALIDATOR_NAMES) builtIn.add(name);
      for (const name of Object.keys(config[DECLARED_VALIDATORS_KEY] as DeclaredValidators)) {
        if (builtIn.has(name)) {
          ctx.addIssue({
            code: 'custom',
            path: [DECLARED_VALIDATORS_KEY, name],
            message: `${JSON.stringify(name)} is taken by tollgate (a built-in validator or tool); give the declared validator another name`,
          });
        }
      }
    });
}

export type ConfigSchema = ReturnType<typeof composeConfigSchema>;

type CoreShape = ReturnType<typeof coreSectionsFor> & { validation: z.ZodObject<typeof validationFields> };
type CoreConfig = z.output<z.ZodObject<CoreShape>>;

/**
 * The effective config as the rest of tollgate sees it: the core sections typed, and each tool's section read through
 * `toolOptions` / `isToolEnabled` (its schema already applied at load time).
 */
export type TollgateConfig = Omit<CoreConfig, 'validation'> & {
  validation: CoreConfig['validation'] & { [tool: string]: unknown };
  [section: string]: unknown;
};

export function isToolEnabled(config: TollgateConfig, tool: AnyToolDefinition): boolean {
  const entry = config.validation[tool.name] as { enabled?: boolean } | undefined;
  return entry?.enabled ?? tool.enabledByDefault;
}

export function toolOptions(config: TollgateConfig, tool: AnyToolDefinition): unknown {
  return config[tool.configKey];
}
