import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SEVERITIES } from '../../core/finding.js';
import { TOOL_STATUSES } from '../../core/result.js';
import type { ValidationCallOutcome } from '../../core/run/validation-call.js';
import { validationFooter } from '../../core/run/validation-results.js';

/** `structuredContent` of every validation tool. */
export const validationOutputShape = {
  status: z.enum(TOOL_STATUSES),
  summary: z.string(),
  runId: z.string().nullable(),
  fingerprint: z.string().nullable(),
  tools: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      status: z.enum(TOOL_STATUSES),
      summary: z.string(),
      durationMs: z.number(),
      findings: z.array(
        z.object({
          id: z.string(),
          severity: z.enum(SEVERITIES),
          title: z.string(),
          path: z.string().optional(),
          line: z.number().optional(),
          waived: z.boolean(),
        }),
      ),
    }),
  ),
  next: z.string(),
};

/** The outcome as structured content plus the Markdown report as text (for clients that ignore structured content). */
export function validationResult(callName: string, outcome: ValidationCallOutcome): CallToolResult {
  const structuredContent = {
    status: outcome.status,
    summary: outcome.summary,
    runId: outcome.runId,
    fingerprint: outcome.fingerprint,
    tools: outcome.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      status: tool.status,
      summary: tool.summary,
      durationMs: tool.durationMs,
      findings: tool.findings.map((finding) => ({
        id: finding.id,
        severity: finding.severity,
        title: finding.title,
        ...(finding.path === undefined ? {} : { path: finding.path }),
        ...(finding.line === undefined ? {} : { line: finding.line }),
        waived: finding.waiver !== undefined,
      })),
    })),
    next: validationFooter({ callName, status: outcome.status, tools: outcome.tools }),
  };
  return {
    content: [{ type: 'text', text: outcome.text }],
    structuredContent,
    ...(outcome.status === 'invalid_input' ? { isError: true } : {}),
  };
}

/** A failure of the call itself (bad config, not a repository): an `isError` result, never a crashed server. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
