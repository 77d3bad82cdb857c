import { z } from 'zod';
import { AGENT_NAMES } from '../../agents/index.js';
import { type AgentSettings, THINKING_BUDGETS } from '../../agents/types.js';
import { durationSchema, sizeSchema } from '../../core/config/duration.js';
import { REVIEW_SEVERITIES } from './severities.js';

const DEFAULT_INSTRUCTION_FILES = [
  '.tollgate/review.md',
  'AGENTS.md',
  'CLAUDE.md',
  '.github/copilot-instructions.md',
] as const;

const adapterSettingsSchema = z
  .object({
    model: z
      .string()
      .min(1)
      .optional()
      .describe("Model name passed to the CLI's own model flag; omit for its default."),
    thinkingBudget: z
      .enum(THINKING_BUDGETS)
      .default('off')
      .describe(
        "Reasoning effort, mapped to the CLI's own flag (Claude --effort, Codex model_reasoning_effort, Copilot --reasoning-effort); off omits it.",
      ),
    allowToolUse: z
      .boolean()
      .default(true)
      .describe(
        'false: no read-only tool allow-list is passed; the reviewer works from the prompt (Claude gets no tools).',
      ),
    maxTurns: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(10)
      .describe('Agentic turn cap, where the CLI has one (Claude).'),
  })
  .strict();

const repoRelativePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !path.split(/[\\/]/).includes('..'), {
    message: 'expected a path inside the repository, relative to its root',
  });

export const codeReviewOptionsSchema = z
  .object({
    cliPreference: z
      .array(z.enum(AGENT_NAMES))
      .min(1)
      .default([...AGENT_NAMES])
      .refine((names) => new Set(names).size === names.length, { message: 'lists an agent twice' })
      .describe('Agent CLIs to review with, in order; slots go round-robin over the healthy ones.'),
    numReviews: z.number().int().min(1).max(10).default(1).describe('How many reviews run (concurrently) per change.'),
    failOn: z.enum(REVIEW_SEVERITIES).default('high').describe('A finding at or above this severity fails the review.'),
    timeout: durationSchema
      .default(300_000)
      .describe('Per review; the whole process group is killed after it, e.g. "5m".'),
    maxFiles: z.number().int().min(1).max(1000).default(100).describe('Changed files whose diff goes into the prompt.'),
    maxDiffBytes: sizeSchema
      .default(200_000)
      .describe('Diff bytes in the prompt; files past it are named so the reviewer can read them itself.'),
    instructions: z
      .array(repoRelativePath)
      .default([...DEFAULT_INSTRUCTION_FILES])
      .describe('Files with review instructions, read from the repository when present.'),
    repairRetry: z
      .boolean()
      .default(false)
      .describe('Ask a reviewer once more, for JSON only, when its answer cannot be parsed.'),
    sendSecrets: z
      .boolean()
      .default(false)
      .describe(
        'true: send the diff as it is; by default credentials (scanner matches, credential-named env values) are masked.',
      ),
    adapters: z
      .partialRecord(z.enum(AGENT_NAMES), adapterSettingsSchema)
      .default({})
      .describe('Per-CLI settings: model, thinkingBudget, allowToolUse, maxTurns.'),
  })
  .strict()
  .prefault({});

export type CodeReviewOptions = z.output<typeof codeReviewOptionsSchema>;

const DEFAULT_SETTINGS: AgentSettings = { thinkingBudget: 'off', allowToolUse: true, maxTurns: 10 };

/** An adapter's settings from config, in the shape adapters take. */
export function agentSettingsFor(options: CodeReviewOptions, name: (typeof AGENT_NAMES)[number]): AgentSettings {
  const configured = options.adapters[name];
  if (!configured) return DEFAULT_SETTINGS;
  return {
    ...(configured.model ? { model: configured.model } : {}),
    thinkingBudget: configured.thinkingBudget,
    allowToolUse: configured.allowToolUse,
    maxTurns: configured.maxTurns,
  };
}
