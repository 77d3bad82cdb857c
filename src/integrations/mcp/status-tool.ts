import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { formatDuration } from '../../core/config/units.js';
import { readGateStatus } from '../../core/run/gate-status.js';
import { readSession } from '../../core/run/session-store.js';
import { CIRCUIT_BREAKER_TIMEOUTS, MIN_REMAINING_BUDGET_MS } from '../../core/run/validation-call.js';
import { VALIDATION_STATUS_DESCRIPTION } from './descriptions.js';
import { errorResult } from './result-content.js';
import type { ToolEntry } from './tool-catalog.js';
import type { ToolContext } from './tool-context.js';
import { planValidationTools } from './tool-plan.js';

export const STATUS_TOOL_NAME = 'validation_status';

const statusInputSchema = z.object({}).strict();

const statusOutputSchema = z.object({
  state: z.enum(['validated', 'failed', 'stale', 'never']),
  fingerprint: z.string(),
  changedFiles: z.number(),
  enabledTools: z.array(z.string()),
  lastRunId: z.string().nullable(),
  unresolvedFindings: z.number(),
  budgetRemainingMs: z.number(),
  consecutiveTimeouts: z.number(),
  /** The session's circuit breaker refuses every further validation call (too many timeouts in a row). */
  circuitBreakerTripped: z.boolean(),
  next: z.string(),
});

/** `validation_status`: whether the current change has passed, and what to call next. Runs no validator. */
export function statusEntry(context: ToolContext): ToolEntry {
  return {
    name: STATUS_TOOL_NAME,
    title: 'Validation status',
    description: VALIDATION_STATUS_DESCRIPTION,
    inputSchema: statusInputSchema,
    outputSchema: statusOutputSchema,
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: (args) => context.guarded(STATUS_TOOL_NAME, () => statusCall(context, args)),
  };
}

async function statusCall(context: ToolContext, args: unknown): Promise<CallToolResult> {
  const input = statusInputSchema.safeParse(args ?? {});
  if (!input.success) {
    const fields = Object.keys((args ?? {}) as object).join(', ');
    return errorResult(
      `validation_status input: takes no arguments (got ${fields || 'a non-object'}); call it with {}`,
    );
  }
  const { sessionId } = context;
  const { repoRoot, loaded } = await context.loadFor();
  context.refresh(loaded.config);
  const registry = context.registryFor(loaded.config);
  const status = await readGateStatus({ repoRoot, config: loaded.config, configHash: loaded.hash, tools: registry });
  const session = readSession(repoRoot, `mcp-${sessionId}`);
  const callName = planValidationTools(registry, loaded.config)[0]?.name ?? null;
  const budgetRemainingMs = Math.max(0, loaded.config.validation.timeout - session.budgetUsedMs);
  const tripped = session.consecutiveTimeouts >= CIRCUIT_BREAKER_TIMEOUTS;
  const structuredContent = {
    state: status.state,
    fingerprint: status.fingerprint,
    changedFiles: status.changedFiles,
    enabledTools: status.enabledTools,
    lastRunId: status.verdict?.runId ?? null,
    unresolvedFindings: status.unresolvedFindings,
    budgetRemainingMs,
    consecutiveTimeouts: session.consecutiveTimeouts,
    circuitBreakerTripped: tripped,
    next: nextStep({ state: status.state, callName, tripped, session, budgetRemainingMs }),
  };
  return {
    content: [{ type: 'text', text: `${structuredContent.next}\n${JSON.stringify(structuredContent, null, 2)}` }],
    structuredContent,
  };
}

function nextStep(facts: {
  state: string;
  callName: string | null;
  tripped: boolean;
  session: { consecutiveTimeouts: number };
  budgetRemainingMs: number;
}): string {
  if (facts.state === 'validated') return 'Validation has passed on the current change; it may be declared done.';
  const call = facts.callName ?? 'tollgate run';
  if (facts.tripped) {
    return `The circuit breaker has tripped: validation timed out ${facts.session.consecutiveTimeouts} times in a row in this session, so \`${call}\` is refused for the rest of it. Split the change, or raise \`validation.timeout\` and start a new session; or run \`tollgate run\` in a terminal.`;
  }
  if (facts.budgetRemainingMs < MIN_REMAINING_BUDGET_MS) {
    return `This session's validation budget is spent (${formatDuration(facts.budgetRemainingMs)} left, \`validation.timeout\`): \`${call}\` is refused for the rest of it. Start a new session, or run \`tollgate run\` in a terminal.`;
  }
  return `Call \`${call}\` to validate the current change.`;
}
