import { z } from 'zod';
import { lazy } from '../lazy.js';
import type { EventDataByType, EventType } from './types.js';

/**
 * zod schemas for reading logs back (`reader.ts`), one per event type in `types.ts`. Loose objects: a field added by
 * a newer tollgate is kept, not an error. The `satisfies` below fails to compile when a type in `types.ts` has no
 * schema here. Built on first use: a run writes events and never reads them back.
 */
/** A finding as a log holds it: in a tool's result and in `run.end`. */
export const loggedFindingSchema = lazy(() =>
  z.looseObject({
    id: z.string().optional(),
    severity: z.string().optional(),
    title: z.string(),
    path: z.string().optional(),
    line: z.number().optional(),
    waiver: z.looseObject({ by: z.string(), reason: z.string() }).optional(),
  }),
);

const errorSchema = lazy(() => z.looseObject({ message: z.string(), code: z.string().optional() }));

export const envelopeSchema = lazy(() =>
  z.looseObject({
    id: z.string().min(1),
    parentId: z.string().nullable(),
    timestamp: z.string(),
    type: z.string().min(1),
    ephemeral: z.boolean().optional(),
    data: z.unknown(),
  }),
);

export const eventDataSchemas = lazy(
  () =>
    ({
      'run.start': z.looseObject({
        runId: z.string(),
        command: z.string(),
        repoRoot: z.string(),
        base: z.looseObject({ ref: z.string().nullable(), commit: z.string().nullable(), source: z.string() }),
        fingerprint: z.string(),
        configHash: z.string(),
        tools: z.array(z.string()),
      }),
      'run.end': z.looseObject({
        runId: z.string(),
        verdict: z.enum(['passed', 'failed']),
        durationMs: z.number(),
        tools: z
          .array(
            z.looseObject({
              name: z.string(),
              status: z.string(),
              summary: z.string().optional(),
              findings: z.array(loggedFindingSchema()).default([]),
            }),
          )
          .optional(),
      }),
      'run.abort': z.looseObject({ runId: z.string(), signal: z.string(), durationMs: z.number() }),
      'tool.user_requested': z.looseObject({ toolCallId: z.string(), toolName: z.string(), arguments: z.unknown() }),
      'tool.execution_start': z.looseObject({
        toolCallId: z.string(),
        toolName: z.string(),
        arguments: z.unknown(),
        mcpServerName: z.string().optional(),
      }),
      'tool.execution_progress': z.looseObject({ toolCallId: z.string(), progressMessage: z.string() }),
      'tool.execution_partial_result': z.looseObject({ toolCallId: z.string(), partialOutput: z.string() }),
      'tool.execution_complete': z.looseObject({
        toolCallId: z.string(),
        toolName: z.string(),
        success: z.boolean(),
        durationMs: z.number(),
        result: z.unknown().optional(),
        error: errorSchema().optional(),
      }),
      'hook.start': z.looseObject({
        hookInvocationId: z.string(),
        hookType: z.string(),
        toolCallId: z.string().optional(),
        input: z.unknown().optional(),
      }),
      'hook.end': z.looseObject({
        hookInvocationId: z.string(),
        hookType: z.string(),
        success: z.boolean(),
        output: z.unknown().optional(),
        error: errorSchema().optional(),
      }),
      'permission.requested': z.looseObject({
        requestId: z.string(),
        toolCallId: z.string(),
        permissionRequest: z.looseObject({ kind: z.string(), toolName: z.string() }),
        resolvedByHook: z.boolean().optional(),
      }),
      'permission.completed': z.looseObject({
        requestId: z.string(),
        toolCallId: z.string(),
        result: z.looseObject({ kind: z.enum(['approved', 'denied']), reason: z.string().optional() }),
        decisionSource: z.enum(['config', 'hook', 'default']),
      }),
      'waiver.recorded': z.looseObject({
        findingId: z.string(),
        reason: z.string(),
        by: z.string(),
        severity: z.string().optional(),
        automatic: z.boolean(),
      }),
      'waiver.removed': z.looseObject({ findingId: z.string(), by: z.string() }),
    }) satisfies { [T in EventType]: z.ZodType<EventDataByType[T]> },
);

export function isKnownEventType(type: string): type is EventType {
  return Object.hasOwn(eventDataSchemas(), type);
}
