import { z } from 'zod';
import { durationSchema } from '../../core/config/duration.js';
import { SEVERITIES } from '../../core/finding.js';

export const ADVISORY_SOURCES = ['osv', 'github', 'offline'] as const;
export type AdvisorySourceName = (typeof ADVISORY_SOURCES)[number];

export const advisoriesOptionsSchema = z
  .object({
    sources: z
      .array(z.enum(ADVISORY_SOURCES))
      .min(1)
      .default(['osv'])
      .describe(
        'Advisory databases to ask: osv (api.osv.dev), github (needs a token), offline (advisories.offline.dir).',
      ),
    failOn: z.enum(SEVERITIES).default('medium').describe('Fail when a vulnerable dependency is at least this severe.'),
    all: z
      .boolean()
      .default(false)
      .describe('Check every locked dependency, not only those the change added or changed.'),
    timeout: durationSchema.default(30_000).describe('Per request to an advisory database.'),
    osv: z
      .object({ url: z.string().url().default('https://api.osv.dev').describe('Base URL of the OSV API.') })
      .strict()
      .prefault({}),
    github: z
      .object({
        url: z.string().url().default('https://api.github.com/graphql').describe('GitHub GraphQL endpoint.'),
        tokenEnv: z
          .array(z.string().min(1))
          .default(['GITHUB_TOKEN', 'GH_TOKEN'])
          .describe('Environment variables holding the token.'),
      })
      .strict()
      .prefault({}),
    offline: z
      .object({
        dir: z.string().min(1).optional().describe('Folder of OSV exports: <Ecosystem>/all.zip or <Ecosystem>/*.json.'),
      })
      .strict()
      .prefault({}),
    cache: z
      .object({
        enabled: z.boolean().default(true),
        ttl: durationSchema
          .default(6 * 3_600_000)
          .describe('How long an answer is reused (.tollgate/cache/advisories/).'),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((options, ctx) => {
    if (options.sources.includes('offline') && !options.offline.dir) {
      ctx.addIssue({ code: 'custom', path: ['offline', 'dir'], message: 'required when sources includes "offline"' });
    }
  })
  .prefault({});

export type AdvisoriesOptions = z.output<typeof advisoriesOptionsSchema>;

export const advisoriesInputSchema = z
  .object({
    packages: z
      .array(z.string().min(1))
      .optional()
      .describe(
        'Check these instead of the change set, as ecosystem:name@version (npm:lodash@4.17.15, pypi:django@3.2.0).',
      ),
    all: z.boolean().optional().describe('Check every locked dependency, not only those the change added or changed.'),
  })
  .strict();
export type AdvisoriesInput = z.output<typeof advisoriesInputSchema>;
