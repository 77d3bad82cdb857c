import { z } from 'zod';
import { lazy } from '../lazy.js';
import type { EventLogRead, LogProblem } from './reader.js';
import { loggedFindingSchema } from './schemas.js';
import type {
  RunAbortData,
  RunEndData,
  RunEndFinding,
  RunEndTool,
  RunStartData,
  TollgateEvent,
  WaiverRecordedData,
  WaiverRemovedData,
} from './types.js';

/** A finding as the log recorded it (already redacted by the pipeline before it was written). */
export type LoggedFinding = RunEndFinding;

export interface ToolCallSummary {
  toolCallId: string;
  toolName: string;
  /** `orphaned`: started, never completed (the run was killed or crashed during the call). */
  state: 'completed' | 'orphaned';
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number | null;
  success: boolean | null;
  /** The result's status (`passed`, `failed`, `timeout`, …) when the result could be read. */
  status: string | null;
  summary: string | null;
  findings: LoggedFinding[];
  error: { message: string; code?: string } | null;
  mcpServerName?: string;
  /** Progress messages, present only in logs written with `--verbose`. */
  progress: string[];
}

export interface HookSummary {
  hookInvocationId: string;
  hookType: string;
  toolCallId: string | null;
  state: 'completed' | 'orphaned';
  success: boolean | null;
  /** `deny` when the hook refused the call. */
  decision: string | null;
  reason: string | null;
}

export interface PermissionSummary {
  requestId: string;
  toolCallId: string;
  toolName: string;
  kind: string;
  /** null when the request was never answered. */
  decision: 'approved' | 'denied' | null;
  reason: string | null;
  source: string | null;
}

export interface RunSummary {
  runId: string | null;
  start: (RunStartData & { at: string }) | null;
  end: (RunEndData & { at: string }) | null;
  /** Set when the run recorded that a signal interrupted it. */
  abort: (RunAbortData & { at: string }) | null;
  /** `interrupted`: the log stops before `run.end` (killed, crashed, or still running). */
  state: 'finished' | 'interrupted';
  tools: ToolCallSummary[];
  hooks: HookSummary[];
  permissions: PermissionSummary[];
  waivers: Array<(WaiverRecordedData & { at: string }) | (WaiverRemovedData & { at: string; removed: true })>;
  /** Events of types this version does not know; kept in the file, counted here. */
  unknownEvents: number;
  problems: LogProblem[];
  truncatedLastLine: boolean;
  firstAt: string | null;
  lastAt: string | null;
}

/**
 * The parts of a `ToolResult` the summary shows; read leniently, since results are `unknown` in the envelope. Built on
 * first use: only `tollgate log` and the HTML page replay a run (start-up: no other command pays for them).
 */
const loggedResultSchema = lazy(() =>
  z.looseObject({
    status: z.string(),
    summary: z.string().optional(),
    findings: z.array(loggedFindingSchema()).default([]),
  }),
);

const hookOutputSchema = lazy(() =>
  z.looseObject({
    decision: z.string().optional(),
    reason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
  }),
);

/** Folds a run's events into what happened: one entry per tool call, hook and permission decision. Pure. */
export function replayRun(read: EventLogRead): RunSummary {
  const fold: Fold = {
    summary: {
      runId: null,
      start: null,
      end: null,
      abort: null,
      state: 'interrupted',
      tools: [],
      hooks: [],
      permissions: [],
      waivers: [],
      unknownEvents: 0,
      problems: read.problems,
      truncatedLastLine: read.truncatedLastLine,
      firstAt: null,
      lastAt: null,
    },
    calls: new Map(),
    hooks: new Map(),
    permissions: new Map(),
  };
  for (const entry of read.events) {
    const at = entry.event.timestamp;
    fold.summary.firstAt ??= at;
    fold.summary.lastAt = at;
    if (!entry.known) fold.summary.unknownEvents++;
    else foldEvent(fold, entry.event, at);
  }
  return fold.summary;
}

/** The summary being built, with each kind of entry by its id so later events find it. */
interface Fold {
  summary: RunSummary;
  calls: Map<string, ToolCallSummary>;
  hooks: Map<string, HookSummary>;
  permissions: Map<string, PermissionSummary>;
}

function foldEvent(fold: Fold, event: TollgateEvent, at: string): void {
  const { summary } = fold;
  switch (event.type) {
    case 'run.start':
      summary.start = { ...event.data, at };
      summary.runId = event.data.runId;
      return;
    case 'run.abort':
      summary.abort = { ...event.data, at };
      summary.runId ??= event.data.runId;
      return;
    case 'run.end':
      summary.end = { ...event.data, at };
      summary.runId ??= event.data.runId;
      summary.state = 'finished';
      for (const tool of event.data.tools ?? []) settleTool(fold, tool);
      return;
    case 'waiver.recorded':
      summary.waivers.push({ ...event.data, at });
      return;
    case 'waiver.removed':
      summary.waivers.push({ ...event.data, at, removed: true });
      return;
    case 'hook.start':
    case 'hook.end':
      foldHookEvent(fold, event);
      return;
    case 'permission.requested':
    case 'permission.completed':
      foldPermissionEvent(fold, event);
      return;
    default:
      foldToolEvent(fold, event, at);
  }
}

type EventOf<T extends TollgateEvent['type']> = Extract<TollgateEvent, { type: T }>;

function foldToolEvent(fold: Fold, event: TollgateEvent, at: string): void {
  switch (event.type) {
    case 'tool.execution_start': {
      const call = callFor(fold, event.data.toolCallId, event.data.toolName);
      call.startedAt = at;
      if (event.data.mcpServerName) call.mcpServerName = event.data.mcpServerName;
      return;
    }
    case 'tool.execution_progress':
      fold.calls.get(event.data.toolCallId)?.progress.push(event.data.progressMessage);
      return;
    case 'tool.execution_complete': {
      const call = callFor(fold, event.data.toolCallId, event.data.toolName);
      call.state = 'completed';
      call.completedAt = at;
      call.durationMs = event.data.durationMs;
      call.success = event.data.success;
      call.error = event.data.error ? { ...event.data.error } : null;
      const result = loggedResultSchema().safeParse(event.data.result);
      if (result.success) {
        call.status = result.data.status;
        call.summary = result.data.summary ?? null;
        call.findings = result.data.findings.map(pickFinding);
      }
      return;
    }
    default:
      // Partial results carry nothing the summary shows.
      return;
  }
}

/**
 * A validator's final result (`run.end`) replaces what its call logged, so the log shows what the report showed: a
 * pass of a tree that changed during the run is `incomplete`, and a result no call produced (pending policy edits)
 * gets an entry of its own.
 */
function settleTool(fold: Fold, tool: RunEndTool): void {
  const called = fold.summary.tools.findLast((call) => call.toolName === tool.name && call.state === 'completed');
  const call = called ?? callFor(fold, `run.end:${tool.name}`, tool.name);
  call.state = 'completed';
  call.success ??= true;
  call.status = tool.status;
  call.summary = tool.summary ?? null;
  call.findings = tool.findings.map(pickFinding);
}

/** The call's entry, created on first sight: a completion without a start still shows up. */
function callFor(fold: Fold, toolCallId: string, toolName: string): ToolCallSummary {
  let call = fold.calls.get(toolCallId);
  if (!call) {
    call = {
      toolCallId,
      toolName,
      state: 'orphaned',
      startedAt: null,
      completedAt: null,
      durationMs: null,
      success: null,
      status: null,
      summary: null,
      findings: [],
      error: null,
      progress: [],
    };
    fold.calls.set(toolCallId, call);
    fold.summary.tools.push(call);
  }
  return call;
}

function foldHookEvent(fold: Fold, event: EventOf<'hook.start' | 'hook.end'>): void {
  const fresh = (toolCallId: string | null): HookSummary => ({
    hookInvocationId: event.data.hookInvocationId,
    hookType: event.data.hookType,
    toolCallId,
    state: 'orphaned',
    success: null,
    decision: null,
    reason: null,
  });
  if (event.type === 'hook.start') {
    const hook = fresh(event.data.toolCallId ?? null);
    fold.hooks.set(hook.hookInvocationId, hook);
    fold.summary.hooks.push(hook);
    return;
  }
  let hook = fold.hooks.get(event.data.hookInvocationId);
  if (!hook) {
    hook = fresh(null);
    fold.summary.hooks.push(hook);
  }
  hook.state = 'completed';
  hook.success = event.data.success;
  const output = hookOutputSchema().safeParse(event.data.output);
  if (output.success) {
    hook.decision = output.data.decision ?? null;
    // A hook that asked for its output to be suppressed keeps its reason out of what `log` prints.
    hook.reason = output.data.suppressOutput ? null : (output.data.reason ?? null);
  }
  if (event.data.error) hook.reason = event.data.error.message;
}

function foldPermissionEvent(fold: Fold, event: EventOf<'permission.requested' | 'permission.completed'>): void {
  if (event.type === 'permission.requested') {
    const request: PermissionSummary = {
      requestId: event.data.requestId,
      toolCallId: event.data.toolCallId,
      toolName: event.data.permissionRequest.toolName,
      kind: event.data.permissionRequest.kind,
      decision: null,
      reason: null,
      source: null,
    };
    fold.permissions.set(request.requestId, request);
    fold.summary.permissions.push(request);
    return;
  }
  const request = fold.permissions.get(event.data.requestId);
  if (!request) return;
  request.decision = event.data.result.kind;
  request.reason = event.data.result.reason ?? null;
  request.source = event.data.decisionSource;
}

function pickFinding(finding: LoggedFinding): LoggedFinding {
  return {
    title: finding.title,
    ...(finding.id === undefined ? {} : { id: finding.id }),
    ...(finding.severity === undefined ? {} : { severity: finding.severity }),
    ...(finding.path === undefined ? {} : { path: finding.path }),
    ...(finding.line === undefined ? {} : { line: finding.line }),
    ...(finding.waiver === undefined ? {} : { waiver: { by: finding.waiver.by, reason: finding.waiver.reason } }),
  };
}
