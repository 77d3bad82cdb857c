import { defineTool } from '../../core/pipeline/tool.js';
import { codeReviewInputSchema } from './input.js';
import { codeReviewOptionsSchema } from './options.js';

export const codeReviewTool = defineTool({
  name: 'code_review',
  title: 'AI code review',
  description:
    'Asks other coding agents (Claude Code, Codex, Gemini, Copilot, Cursor, OpenCode CLIs, whichever are installed) to ' +
    'review the change read-only, and fails on findings at or above `code_review.failOn`. Call it once the change is ' +
    'complete, before declaring it done; pass prTitle and prDescription as for a pull request. A change is trivial ' +
    'only if it cannot alter behaviour (comments, typos in docs, formatting); logic, config, CI, dependency, security ' +
    'and error-message changes never are.',
  aliases: ['review'],
  configKey: 'code_review',
  optionsSchema: codeReviewOptionsSchema,
  inputSchema: codeReviewInputSchema,
  permissions: ['spawnAgents'],
  // It needs an AI CLI and spends the user's quota: opt in.
  enabledByDefault: false,
  run: async (ctx) => (await import('./run-code-review.js')).runCodeReview(ctx),
});
