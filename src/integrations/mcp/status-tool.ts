import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { readGateStatus } from '../../core/run/gate-status.js';
import { readSession } from '../../core/run/session-store.js';
import { VALIDATION_STATUS_DESCRIPTION } from './descriptions.js';
import { errorResult } from './result-content.js';
import type { ToolContext } from './tool-context.js';
import { planValidationTools } from './tool-plan.js';

const STATUS_TOOL_NAME = 'validation_status';

const statusInputSchema = z.object({}).strict();

const statusOutputShape = {
  state: z.enum(['validated', 'failed', 'stale', 'never']),
  fingerprint: z.string(),
  changedFiles: z.number(),
  enabledTools: z.array(z.string()),
  lastRunId: z.string().nullable(),
  unresolvedFindings: z.number(),
  budgetRemainingMs: z.number(),
  consecutiveTimeouts: z.number(),
  next: z.string(),
};

/** `validation_status`: whether the current change has passed, and what to call next. */
export function registerStatusTool(context: ToolContext): void {
  context.server.registerTool(
    STATUS_TOOL_NAME,
    {
      title: 'Validation status',
      description: VALIDATION_STATUS_DESCRIPTION,
      inputSchema: statusInputSchema,
      outputSchema: statusOutputShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ((args: unknown) => context.guarded(STATUS_TOOL_NAME, () => statusCall(context, args))) as never,
  );
}

async function statusCall(context: ToolContext, args: unknown): Promise<CallToolResult> {
  const input = statusInputSchema.safeParse(args ?? {});
  if (!input.success) {
    const fields = Object.keys((args ?? {}) as object).join(', ');
    return errorResult(
      `validation_status input: takes no arguments (got ${fields || 'a non-object'}); call it with {}`,
    );
  }
  const { registry, sessionId } = context;
  const { repoRoot, loaded } = await context.loadFor();
  const status = await readGateStatus({ repoRoot, config: loaded.config, configHash: loaded.hash, tools: registry });
  const session = readSession(repoRoot, `mcp-${sessionId}`);
  const callName = planValidationTools(registry, loaded.config)[0]?.name ?? null;
  const structuredContent = {
    state: status.state,
    fingerprint: status.fingerprint,
    changedFiles: status.changedFiles,
    enabledTools: status.enabledTools,
    lastRunId: status.verdict?.runId ?? null,
    unresolvedFindings: status.unresolvedFindings,
    budgetRemainingMs: Math.max(0, loaded.config.validation.timeout - session.budgetUsedMs),
    consecutiveTimeouts: session.consecutiveTimeouts,
    next:
      status.state === 'validated'
        ? 'Validation has passed on the current change; it may be declared done.'
        : `Call \`${callName ?? 'tollgate run'}\` to validate the current change.`,
  };
  return {
    content: [{ type: 'text', text: `${structuredContent.next}\n${JSON.stringify(structuredContent, null, 2)}` }],
    structuredContent,
  };
}
