import { z } from 'zod';
import { durationSchema } from '../../core/config/duration.js';

const checkSchema = z
  .object({
    name: z.string().min(1).describe('Shown in reports; must be unique.'),
    run: z.string().min(1).describe('Shell command, run with `sh -c` from `cwd`.'),
    paths: z
      .array(z.string().min(1))
      .optional()
      .describe('Glob patterns; the check runs only when a changed file matches one. Omit to always run.'),
    timeout: durationSchema.default(300_000).describe('Kill the whole process group after this long, e.g. "90s".'),
    env: z.record(z.string(), z.string()).default({}).describe('Extra environment variables.'),
    cwd: z.string().default('.').describe('Working directory, relative to the repository root.'),
    exclusive: z
      .boolean()
      .optional()
      .describe(
        'Run alone: after every other check and validator of the run has finished, one exclusive check at a time (timing-sensitive suites).',
      ),
  })
  .strict();

export type Check = z.output<typeof checkSchema>;

export const checksOptionsSchema = z
  .array(checkSchema)
  .superRefine((checks, ctx) => {
    const seen = new Map<string, number>();
    checks.forEach((check, index) => {
      const first = seen.get(check.name);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'name'],
          message: `duplicate check name ${JSON.stringify(check.name)} (first used by checks[${first}])`,
        });
      } else seen.set(check.name, index);
    });
  })
  .prefault([]);

export type ChecksOptions = z.output<typeof checksOptionsSchema>;
