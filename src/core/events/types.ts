/**
 * The event envelope, mirroring Copilot CLI's session events (`@github/copilot-sdk`, session-events.d.ts): a linked
 * chain `{id, parentId, timestamp, type, ephemeral?, data}`. Persisted as JSONL in `.tollgate/runs/<runId>/events.jsonl`.
 */

export interface EventEnvelope<Type extends string = string, Data = unknown> {
  id: string;
  parentId: string | null;
  timestamp: string;
  type: Type;
  ephemeral?: boolean;
  data: Data;
}

export interface RunStartData {
  runId: string;
  command: string;
  repoRoot: string;
  base: { ref: string | null; commit: string | null; source: string };
  fingerprint: string;
  configHash: string;
  tools: string[];
  /** Answered from the saved report of this earlier run: nothing had changed since (src/core/run/unchanged-run.ts). */
  unchangedSince?: string;
}

export interface ToolExecutionStartData {
  toolCallId: string;
  toolName: string;
  arguments: unknown;
  mcpServerName?: string;
}

/** A call a person asked for directly (`tollgate run` at a terminal), recorded before its `tool.execution_start`. */
export interface ToolUserRequestedData {
  toolCallId: string;
  toolName: string;
  arguments: unknown;
}

export interface ToolExecutionProgressData {
  toolCallId: string;
  progressMessage: string;
}

export interface ToolExecutionPartialResultData {
  toolCallId: string;
  partialOutput: string;
}

export interface ToolExecutionCompleteData {
  toolCallId: string;
  toolName: string;
  success: boolean;
  durationMs: number;
  /** The tool's result (status, summary, findings). */
  result?: unknown;
  error?: { message: string; code?: string };
}

export interface HookStartData {
  hookInvocationId: string;
  hookType: string;
  toolCallId?: string;
  input?: unknown;
}

export interface HookEndData {
  hookInvocationId: string;
  hookType: string;
  success: boolean;
  output?: unknown;
  error?: { message: string };
}

export interface PermissionRequestedData {
  requestId: string;
  toolCallId: string;
  permissionRequest: { kind: string; toolName: string };
  resolvedByHook?: boolean;
}

export interface PermissionCompletedData {
  requestId: string;
  toolCallId: string;
  result: { kind: 'approved' | 'denied'; reason?: string };
  decisionSource: 'config' | 'hook' | 'default';
}

export interface WaiverRecordedData {
  findingId: string;
  reason: string;
  by: string;
  severity?: string;
  /** True when an agent recorded it (no `--human`): allowed only for severities in `waivers.allow`. */
  automatic: boolean;
}

/** `tollgate waive --remove`. Waiver events go to `.tollgate/waivers.events.jsonl`, not to a run's log. */
export interface WaiverRemovedData {
  findingId: string;
  by: string;
}

export interface RunEndData {
  runId: string;
  verdict: 'passed' | 'failed';
  durationMs: number;
  /**
   * Each validator as the run's report holds it: its call's result after the tree was checked again (a pass of a tree
   * that changed meanwhile is `incomplete`) and waivers applied, and the results no call produced (pending policy
   * edits). Absent in logs of older versions.
   */
  tools?: RunEndTool[];
}

/** A validator's final result in `run.end`: masked, like every text of the log. */
export interface RunEndTool {
  name: string;
  status: string;
  summary?: string;
  findings: RunEndFinding[];
}

export interface RunEndFinding {
  id?: string;
  severity?: string;
  title: string;
  path?: string;
  line?: number;
  waiver?: { by: string; reason: string };
}

/** The run was interrupted by a signal before it could finish (its tools' children were killed). */
export interface RunAbortData {
  runId: string;
  signal: string;
  durationMs: number;
}

export interface EventDataByType {
  'run.start': RunStartData;
  'run.end': RunEndData;
  'run.abort': RunAbortData;
  'tool.user_requested': ToolUserRequestedData;
  'tool.execution_start': ToolExecutionStartData;
  'tool.execution_progress': ToolExecutionProgressData;
  'tool.execution_partial_result': ToolExecutionPartialResultData;
  'tool.execution_complete': ToolExecutionCompleteData;
  'hook.start': HookStartData;
  'hook.end': HookEndData;
  'permission.requested': PermissionRequestedData;
  'permission.completed': PermissionCompletedData;
  'waiver.recorded': WaiverRecordedData;
  'waiver.removed': WaiverRemovedData;
}

export type EventType = keyof EventDataByType;

export type TollgateEvent = { [T in EventType]: EventEnvelope<T, EventDataByType[T]> }[EventType];

/** Progress and partial output are ephemeral: persisted only with `--verbose`. */
export const EPHEMERAL_TYPES: ReadonlySet<EventType> = new Set([
  'tool.execution_progress',
  'tool.execution_partial_result',
]);
