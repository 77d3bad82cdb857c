import { z } from 'zod';
import { formatFlag } from './flags.js';

/** `tollgate run`'s flags, parsed once by the command and read by the glue that runs it. */
export const runFlags = z.object({
  base: z.string().min(1).optional(),
  only: z.array(z.string()).default([]),
  skip: z.array(z.string()).default([]),
  format: formatFlag.optional(),
  output: z.string().min(1).optional(),
  wait: z.boolean().default(true),
  verbose: z.boolean().default(false),
  progress: z.boolean().default(false),
  strict: z.boolean().default(false),
});
export type RunFlags = z.output<typeof runFlags>;
