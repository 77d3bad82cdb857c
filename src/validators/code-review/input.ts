import { z } from 'zod';

/** A call's input: what a pull request would say about the change, and the caller's view of its triviality. */
export const codeReviewInputSchema = z
  .object({
    prTitle: z.string().trim().min(1).max(500).optional().describe('Pull-request style title of the change.'),
    prDescription: z.string().max(20_000).optional().describe('What the change does and why.'),
    trivialChangeDeclaration: z
      .object({
        isTrivial: z.boolean(),
        reason: z.string().trim().min(1).max(2000),
      })
      .strict()
      .optional()
      .describe(
        'Recorded always; skips the review only when validation.skipTrivial lists code_review. Never trivial: logic, security, config, CI, dependency or error-handling changes.',
      ),
  })
  .strict();

export type CodeReviewInput = z.output<typeof codeReviewInputSchema>;
