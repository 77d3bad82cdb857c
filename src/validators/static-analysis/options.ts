import { z } from 'zod';
import { durationSchema, sizeSchema } from '../../core/config/duration.js';
import { SEVERITIES } from '../../core/finding.js';
import { CODEQL_LANGUAGE_IDS } from './producers/codeql/languages.js';

/** `auto`: run when the tool is installed (and has something to look at); `true`: required; `false`: never. */
const producerSwitch = z
  .union([z.literal('auto'), z.boolean()])
  .default('auto')
  .describe('"auto" runs it when installed; true requires it (missing → tool_unavailable); false turns it off.');

const codeqlSchema = z
  .object({
    enabled: producerSwitch,
    languages: z
      .array(z.enum(CODEQL_LANGUAGE_IDS))
      .optional()
      .describe('CodeQL languages to analyze; default: those of the changed files.'),
    queries: z
      .string()
      .min(1)
      .default('code-scanning')
      .describe(
        'A suite name (code-scanning, security-extended, security-and-quality) or any query, pack or .qls path.',
      ),
    maxRepoSizeBytes: sizeSchema
      .default(10_000_000)
      .describe("Skip a language when the repository's source in it is larger than this (database creation is slow)."),
    timeout: durationSchema
      .default(180_000)
      .describe('Budget for all CodeQL languages together, within validation.timeout.'),
    threads: z.number().int().min(0).default(0).describe('--threads for CodeQL; 0 = one per core.'),
    overlay: z
      .boolean()
      .default(true)
      .describe(
        "Build the base commit's database once and extract only the changed files over it (CodeQL 2.23.9+, build mode none).",
      ),
  })
  .strict();

const semgrepSchema = z
  .object({
    enabled: producerSwitch,
    config: z
      .array(z.string().min(1))
      .default([])
      .describe('--config values; default: .semgrep.yml or .semgrep/ in the repository, else p/default.'),
    timeout: durationSchema.default(120_000),
  })
  .strict();

const eslintSchema = z
  .object({
    enabled: producerSwitch,
    timeout: durationSchema.default(120_000),
  })
  .strict();

const analyzerSchema = z
  .object({
    name: z.string().min(1).describe('Shown in reports and as the source of its findings; must be unique.'),
    run: z
      .string()
      .min(1)
      .describe('Shell command (sh -c, from the repository root) that writes SARIF 2.1.0; $TOLLGATE_SARIF is `sarif`.'),
    sarif: z.string().min(1).describe('Where the command writes its SARIF, relative to the repository root.'),
    paths: z.array(z.string().min(1)).optional().describe('Glob patterns; run only when a changed file matches.'),
    timeout: durationSchema.default(300_000),
  })
  .strict();
export type AnalyzerConfig = z.output<typeof analyzerSchema>;

export const staticAnalysisOptionsSchema = z
  .object({
    scope: z
      .enum(['changed_lines', 'changed_files'])
      .default('changed_lines')
      .describe('Keep results on changed lines only, or anywhere in a changed file.'),
    failOn: z.enum(SEVERITIES).default('high').describe('Fail when a result is at least this severe.'),
    codeql: codeqlSchema.prefault({}),
    semgrep: semgrepSchema.prefault({}),
    eslint: eslintSchema.prefault({}),
    analyzers: z.array(analyzerSchema).default([]),
  })
  .strict()
  .superRefine((options, ctx) => {
    const seen = new Map<string, number>();
    options.analyzers.forEach((analyzer, index) => {
      const first = seen.get(analyzer.name);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['analyzers', index, 'name'],
          message: `duplicate analyzer name ${JSON.stringify(analyzer.name)} (first used by analyzers[${first}])`,
        });
      } else seen.set(analyzer.name, index);
    });
  })
  .prefault({});

export type StaticAnalysisOptions = z.output<typeof staticAnalysisOptionsSchema>;
