import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { HookCommand } from '../config/schema.js';
import { errorMessage } from '../errors.js';
import { lazy } from '../lazy.js';
import { runProcess } from '../process.js';
import type { EventSink } from './event-sink.js';
import { loadRedactor, type Redact, redactJson } from './redact-result.js';

export type HookType = 'preToolUse' | 'postToolUse' | 'postToolUseFailure';

/**
 * What a hook may answer on stdout (one JSON object; empty output means "allow, nothing to add"). Exit code 2 denies
 * with stderr as the reason, as in Claude Code; any other non-zero exit is a hook failure.
 */
const hookReplySchema = lazy(() =>
  z
    .object({
      decision: z.enum(['allow', 'deny']).optional(),
      reason: z.string().optional(),
      modifiedArguments: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
      /** Keep what this reply says (its context, its reason) out of what tollgate prints; the event log still has it. */
      suppressOutput: z.boolean().optional(),
    })
    .strict(),
);
export type HookReply = z.infer<ReturnType<typeof hookReplySchema>>;

export type HookOutcome =
  | { kind: 'ok'; reply: HookReply }
  | { kind: 'denied'; reason: string }
  | { kind: 'failed'; message: string };

export interface HookRunContext {
  repoRoot: string;
  toolCallId: string;
  toolName: string;
  events: EventSink;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export function hookMatches(hook: HookCommand, toolName: string): boolean {
  if (hook.matcher === undefined || hook.matcher === '' || hook.matcher === '*') return true;
  try {
    return new RegExp(`^(?:${hook.matcher})$`).test(toolName);
  } catch {
    // An invalid matcher skips the entry (config validation reports it; this is the runtime backstop).
    return false;
  }
}

function describe(hook: HookCommand): string {
  const command = hook.run.length > 60 ? `${hook.run.slice(0, 57)}...` : hook.run;
  return JSON.stringify(command);
}

export async function runHook(
  hookType: HookType,
  hook: HookCommand,
  payload: Record<string, unknown>,
  ctx: HookRunContext,
): Promise<HookOutcome> {
  const hookInvocationId = randomUUID();
  const input = { hookType, toolName: ctx.toolName, toolCallId: ctx.toolCallId, repoRoot: ctx.repoRoot, ...payload };
  const redact = await loadRedactor();
  ctx.events.emit('hook.start', {
    hookInvocationId,
    hookType,
    toolCallId: ctx.toolCallId,
    input: redactJson(input, redact),
  });
  const outcome = maskOutcome(await invoke(hook, input, ctx), redact);
  ctx.events.emit('hook.end', {
    hookInvocationId,
    hookType,
    success: outcome.kind !== 'failed',
    ...(outcome.kind === 'ok' ? { output: redactJson(outcome.reply, redact) } : {}),
    ...(outcome.kind === 'denied' ? { output: { decision: 'deny', reason: outcome.reason } } : {}),
    ...(outcome.kind === 'failed' ? { error: { message: outcome.message } } : {}),
  });
  return outcome;
}

/** What a hook says goes into reports and agents' context: masked. Modified arguments are input, kept as given. */
function maskOutcome(outcome: HookOutcome, redact: Redact): HookOutcome {
  switch (outcome.kind) {
    case 'ok': {
      const { additionalContext, reason } = outcome.reply;
      return {
        kind: 'ok',
        reply: {
          ...outcome.reply,
          ...(additionalContext !== undefined ? { additionalContext: redact(additionalContext) } : {}),
          ...(reason !== undefined ? { reason: redact(reason) } : {}),
        },
      };
    }
    case 'denied':
      return { kind: 'denied', reason: redact(outcome.reason) };
    case 'failed':
      return { kind: 'failed', message: redact(outcome.message) };
  }
}

async function invoke(hook: HookCommand, input: Record<string, unknown>, ctx: HookRunContext): Promise<HookOutcome> {
  const name = `${String(input.hookType)} hook ${describe(hook)}`;
  let result: Awaited<ReturnType<typeof runProcess>>;
  try {
    result = await runProcess('sh', ['-c', hook.run], {
      cwd: ctx.repoRoot,
      env: { ...(ctx.env ?? process.env), TOLLGATE_HOOK: String(input.hookType) },
      input: JSON.stringify(input),
      timeoutMs: hook.timeout,
      signal: ctx.signal,
      maxOutputBytes: 1024 * 1024,
    });
  } catch (error) {
    return { kind: 'failed', message: `${name} could not start: ${errorMessage(error)}` };
  }
  if (result.timedOut) return { kind: 'failed', message: `${name} timed out after ${hook.timeout} ms` };
  if (result.spawnError) return { kind: 'failed', message: `${name} could not start: ${result.spawnError.message}` };
  if (result.exitCode === 2) {
    return { kind: 'denied', reason: firstLine(result.stderr) || `${name} exited 2` };
  }
  if (result.exitCode !== 0) {
    const detail = firstLine(result.stderr);
    return {
      kind: 'failed',
      message: `${name} exited ${result.exitCode ?? result.signal}${detail ? `: ${detail}` : ''}`,
    };
  }
  const text = result.stdout.trim();
  if (text === '') return { kind: 'ok', reply: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      kind: 'failed',
      message: `${name} printed something that is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
    };
  }
  const parsed = hookReplySchema().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'reply';
    return {
      kind: 'failed',
      message: `${name} answered an invalid reply at ${where}: expected {decision?: "allow"|"deny", reason?, modifiedArguments?, additionalContext?, suppressOutput?: boolean}`,
    };
  }
  if (parsed.data.decision === 'deny') {
    return { kind: 'denied', reason: parsed.data.reason ?? `${name} denied the call` };
  }
  return { kind: 'ok', reply: parsed.data };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}
