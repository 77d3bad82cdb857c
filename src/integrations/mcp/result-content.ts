import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SEVERITIES } from '../../core/finding.js';
import { TOOL_STATUSES } from '../../core/result.js';
import { agentFindings } from '../../core/run/agent-findings.js';
import { blockingFindings } from '../../core/run/run-report.js';
import type { ValidationCallOutcome } from '../../core/run/validation-call.js';
import { validationFooter } from '../../core/run/validation-results.js';

/** Lines of a failed check's excerpt when the outcome did not list its findings itself. */
const FALLBACK_EXCERPT_LINES = 40;

const findingShape = z.object({
  id: z.string(),
  validator: z.string(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  location: z.string().optional().describe('path:line:column, as much as is known'),
  path: z.string().optional(),
  line: z.number().optional(),
  column: z.number().optional(),
  message: z.string(),
  rule: z.string().optional(),
  help: z.string().optional().describe('where to read about the rule'),
  excerpt: z.string().optional().describe("a failed check's output: the failure lines, then the end"),
  waived: z.string().optional().describe('by: reason; a waived finding does not block'),
});

/**
 * `structuredContent` of every validation tool, self-contained: Claude Code and Codex hand their model this object
 * alone (not the Markdown), so each finding carries its place, message, rule help and failure excerpt.
 */
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
      scope: z.string().optional(),
      blockingFindings: z.number(),
      waivedFindings: z.number(),
    }),
  ),
  findings: z.array(findingShape).describe('most severe first; bounded (see omittedFindings)'),
  omittedFindings: z.number().describe('findings left out to keep the result small; `tollgate log RUN` lists all'),
  next: z.string(),
};

/** The outcome as self-contained structured content, and the same facts as Markdown text. */
export function validationResult(callName: string, outcome: ValidationCallOutcome): CallToolResult {
  const list = outcome.findings ?? agentFindings(outcome.tools, { excerptLines: FALLBACK_EXCERPT_LINES });
  const structuredContent = {
    status: outcome.status,
    summary: outcome.summary,
    runId: outcome.runId,
    fingerprint: outcome.fingerprint,
    tools: outcome.tools.map((tool) => {
      const blocking = blockingFindings(tool).length;
      return {
        name: tool.name,
        title: tool.title,
        status: tool.status,
        summary: tool.summary,
        durationMs: tool.durationMs,
        ...(tool.scope ? { scope: tool.scope } : {}),
        blockingFindings: blocking,
        waivedFindings: tool.findings.filter((finding) => finding.waiver).length,
      };
    }),
    findings: list.findings,
    omittedFindings: list.omitted,
    next: validationFooter({
      callName,
      status: outcome.status,
      tools: outcome.tools,
      runId: outcome.runId,
      findings: list,
      ...(outcome.coverage ? { coverage: outcome.coverage } : {}),
    }),
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
