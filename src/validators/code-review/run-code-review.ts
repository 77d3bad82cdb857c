import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import pLimit from 'p-limit';
import { classifyFailureText } from '../../agents/failure-text.js';
import { markAdapterUnhealthy, type ProbeResult } from '../../agents/health.js';
import { agentByName, type RegisteredAdapter } from '../../agents/index.js';
import { assignSlots, buildReviewerPool, type ReviewerPool, type ReviewSlot } from '../../agents/reviewer-pool.js';
import { type AgentRunOutcome, runAgent } from '../../agents/run-agent.js';
import { atLeast } from '../../core/finding.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult, type ToolStatus } from '../../core/result.js';
import { type ReviewAnswer, reviewAnswerJsonSchema } from './answer.js';
import { selectDiff } from './diff-budget.js';
import type { CodeReviewInput } from './input.js';
import { readInstructionFiles } from './instructions.js';
import { learnChangedSecrets, maskPrompt } from './mask-secrets.js';
import { agentSettingsFor, type CodeReviewOptions } from './options.js';
import { parseReviewAnswer } from './parse-answer.js';
import { buildRepairPrompt, buildReviewPrompt, type ReviewPromptInput } from './prompt.js';
import { collectFindings } from './review-findings.js';
import { lastCommitMessage, snapshotWorkTree } from './work-tree.js';

/**
 * The context the pipeline gives this tool; `skipTrivial` says whether config `validation.skipTrivial` lists code_review.
 */
export type CodeReviewContext = ToolContext<CodeReviewOptions, CodeReviewInput>;

/** What tests replace: the clock (cooldowns), the probe, the reviewers' base environment (fake CLIs on PATH). */
export interface CodeReviewDeps {
  now: () => number;
  env: NodeJS.ProcessEnv;
  probe?: (adapter: RegisteredAdapter) => Promise<ProbeResult>;
  snapshotTree: (repoRoot: string) => Promise<string>;
}

type LostReason = Exclude<AgentRunOutcome['kind'], 'answer'> | 'unparseable';

type SlotOutcome =
  | { kind: 'reviewed'; slot: ReviewSlot; answer: ReviewAnswer; durationMs: number; artifacts: string[] }
  | { kind: 'lost'; slot: ReviewSlot; reason: LostReason; message: string; durationMs: number; artifacts: string[] };

/** Left of the tool's budget for the work after the reviews (tree check, findings). */
const BUDGET_MARGIN_MS = 5_000;

export async function runCodeReview(
  ctx: CodeReviewContext,
  overrides: Partial<CodeReviewDeps> = {},
): Promise<ToolResult> {
  const deps: CodeReviewDeps = { now: Date.now, env: process.env, snapshotTree: snapshotWorkTree, ...overrides };
  const { options, input, changeSet } = ctx;
  const trivial = input.trivialChangeDeclaration;
  const recorded = { trivialChangeDeclaration: trivial ?? null };

  if (trivial?.isTrivial && ctx.skipTrivial) {
    return result(
      'skipped_trivial',
      `skipped: the change was declared trivial (${trivial.reason}) and validation.skipTrivial lists code_review`,
      [],
      recorded,
    );
  }
  if (changeSet.isEmpty) {
    return result('skipped_no_changes', 'No changes detected against the base. Skipping review.', [], recorded);
  }

  ctx.progress(`checking reviewer CLIs (${options.cliPreference.join(', ')})`);
  const pool = await buildReviewerPool({
    preference: options.cliPreference,
    wanted: options.numReviews,
    repoRoot: ctx.repoRoot,
    now: deps.now(),
    env: deps.env,
    runProcess: ctx.runProcess,
    signal: ctx.signal,
    ...(deps.probe ? { probe: deps.probe } : {}),
  });
  const poolDetails = describePool(pool);
  if (pool.healthy.length === 0) return noReviewerResult(pool, options, { ...recorded, ...poolDetails });

  const slots = assignSlots(pool.healthy, options.numReviews);
  const promptFor = await promptBuilder(ctx);
  const treeBefore = await deps.snapshotTree(ctx.repoRoot);

  ctx.progress(`reviewing with ${slots.map((slot) => slot.label).join(', ')}`);
  const limit = pLimit(Math.max(1, ctx.concurrency));
  const outcomes = await Promise.all(
    slots.map((slot) => limit(() => runSlot(slot, promptFor(slot.adapter), ctx, deps))),
  );

  const treeAfter = await deps.snapshotTree(ctx.repoRoot);
  const treeChanged = treeBefore !== treeAfter;
  const reviewed = outcomes.filter((outcome) => outcome.kind === 'reviewed');
  const lost = outcomes.filter((outcome) => outcome.kind === 'lost');
  const collected = await collectFindings(
    reviewed.map((outcome) => ({ reviewer: outcome.slot.adapter.name, answer: outcome.answer })),
    changeSet,
  );
  const blocking = collected.findings.filter((finding) => atLeast(finding.severity, options.failOn));
  const outsideBlocking = blocking.filter((finding) => collected.outsideChangeSet.includes(finding.id)).length;
  const details = {
    ...recorded,
    ...poolDetails,
    treeChanged,
    failOn: options.failOn,
    slots: outcomes.map(slotDetail),
    excluded: collected.excluded.length,
    excludedFindings: collected.excluded,
    outsideChangeSet: collected.outsideChangeSet,
    omittedFiles: promptFor.omitted,
  };

  const status = overallStatus({ treeChanged, blocking: blocking.length, reviewed, lost });
  const summary = summarize({
    status,
    treeChanged,
    options,
    reviewed,
    lost,
    blocking: blocking.length,
    outsideBlocking,
    total: collected.findings.length,
    excluded: collected.excluded.length,
    outside: collected.outsideChangeSet.length,
  });
  return result(status, summary, collected.findings, details);
}

function overallStatus(state: {
  treeChanged: boolean;
  blocking: number;
  reviewed: readonly SlotOutcome[];
  lost: ReadonlyArray<Extract<SlotOutcome, { kind: 'lost' }>>;
}): ToolStatus {
  if (state.treeChanged) return 'error';
  if (state.blocking > 0) return 'failed';
  if (state.lost.length === 0) return 'passed';
  const reasons = new Set(state.lost.map((outcome) => outcome.reason));
  const only = (...allowed: LostReason[]) => [...reasons].every((reason) => allowed.includes(reason));
  if (state.reviewed.length === 0 && only('not_logged_in', 'not_installed')) return 'tool_unavailable';
  if (only('timeout')) return 'timeout';
  if (only('rate_limited', 'timeout')) return 'rate_limited';
  return 'error';
}

function summarize(state: {
  status: ToolStatus;
  treeChanged: boolean;
  options: CodeReviewOptions;
  reviewed: ReadonlyArray<Extract<SlotOutcome, { kind: 'reviewed' }>>;
  lost: ReadonlyArray<Extract<SlotOutcome, { kind: 'lost' }>>;
  blocking: number;
  outsideBlocking: number;
  total: number;
  excluded: number;
  outside: number;
}): string {
  const by = state.reviewed.map((outcome) => outcome.slot.label).join(', ');
  const notes: string[] = [];
  if (state.total > state.blocking) notes.push(`${state.total - state.blocking} below ${state.options.failOn}`);
  if (state.excluded > 0) notes.push(`${state.excluded} excluded by the reviewers`);
  if (state.outside > 0) notes.push(`${state.outside} on files outside the change set`);
  const noted = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  const lostText = state.lost.map((outcome) => `${outcome.slot.label}: ${outcome.message}`).join('; ');
  switch (state.status) {
    case 'passed':
      return `${plural(state.reviewed.length, 'review')} (${by}) found nothing at or above ${state.options.failOn}${noted}.`;
    case 'failed': {
      const outside = state.outsideBlocking > 0 ? `, ${state.outsideBlocking} of them outside the change set` : '';
      const incomplete = state.lost.length > 0 ? ` The review is also incomplete: ${lostText}.` : '';
      return `${plural(state.blocking, 'finding')} at or above ${state.options.failOn} from ${by}${outside}${noted}; fix them and rerun, or waive one with a reason.${incomplete}`;
    }
    case 'error':
      if (state.treeChanged) {
        const all = [...state.reviewed, ...state.lost].map((outcome) => outcome.slot.label).join(', ');
        return `the working tree changed while ${all} reviewed it: reviewers must be read-only, so this review does not count. Check \`git status\`, undo what the reviewer changed, and rerun.`;
      }
      return `review incomplete: ${lostText}.${state.reviewed.length > 0 ? ` Completed: ${by}${noted}.` : ''} ${nextStep(state.lost)}`;
    case 'timeout':
      return `review incomplete: ${lostText}. Raise code_review.timeout or review a smaller change.`;
    case 'rate_limited':
      return `review incomplete, rate limited: ${lostText}. This is transient: wait a minute and rerun.`;
    case 'tool_unavailable':
      return `no review ran: ${lostText}.`;
    default:
      return lostText;
  }
}

function nextStep(lost: ReadonlyArray<Extract<SlotOutcome, { kind: 'lost' }>>): string {
  if (lost.some((outcome) => outcome.reason === 'usage_limit')) {
    return 'Rerun: adapters that hit a usage limit cool down for an hour and their slots go to the healthy ones.';
  }
  if (lost.some((outcome) => outcome.reason === 'unparseable')) {
    return 'Rerun; if it keeps happening, set code_review.repairRetry: true or use another CLI.';
  }
  return 'Rerun; the raw output of each reviewer is in the run folder.';
}

async function runSlot(
  slot: ReviewSlot,
  prompt: string,
  ctx: CodeReviewContext,
  deps: CodeReviewDeps,
): Promise<SlotOutcome> {
  const { adapter } = slot;
  const settings = agentSettingsFor(ctx.options, adapter.name);
  const timeoutMs = Math.max(1000, Math.min(ctx.options.timeout, ctx.budget.remainingMs() - BUDGET_MARGIN_MS));
  const run = (text: string) =>
    runAgent({
      adapter,
      prompt: text,
      answerSchema: reviewAnswerJsonSchema,
      repoRoot: ctx.repoRoot,
      settings,
      timeoutMs,
      signal: ctx.signal,
      env: deps.env,
      runProcess: ctx.runProcess,
    });
  const artifacts: string[] = [];
  const outcome = await run(prompt);
  artifacts.push(...(await saveRaw(ctx, `${adapter.name}-${slot.slot}`, outcome)));
  let durationMs = outcome.raw.durationMs;
  const lose = async (reason: LostReason, message: string): Promise<SlotOutcome> => {
    if (reason === 'usage_limit') {
      await markAdapterUnhealthy(ctx.repoRoot, adapter.name, message, new Date(deps.now()));
    }
    return { kind: 'lost', slot, reason, message: describeLoss(adapter, reason, message), durationMs, artifacts };
  };
  if (outcome.kind !== 'answer') return lose(outcome.kind, outcome.message);

  const parsed = parseReviewAnswer(outcome.text, outcome.structured);
  if (parsed.ok) return { kind: 'reviewed', slot, answer: parsed.answer, durationMs, artifacts };
  // An answer that is not the review may be the CLI telling us about its limits.
  const failure = classifyFailureText(adapter, `${outcome.text}\n${outcome.raw.stderr}`);
  if (failure) return lose(failure, firstLine(outcome.text || outcome.raw.stderr));
  if (ctx.options.repairRetry) {
    ctx.progress(`${slot.label}: answer could not be parsed (${parsed.problem}); asking once more for JSON only`);
    const repair = await run(buildRepairPrompt(outcome.text, parsed.problem));
    artifacts.push(...(await saveRaw(ctx, `${adapter.name}-${slot.slot}-repair`, repair)));
    durationMs += repair.raw.durationMs;
    if (repair.kind === 'answer') {
      const reparsed = parseReviewAnswer(repair.text, repair.structured);
      if (reparsed.ok) return { kind: 'reviewed', slot, answer: reparsed.answer, durationMs, artifacts };
    } else return lose(repair.kind, repair.message);
  }
  const saved = artifacts.map((path) => relative(ctx.repoRoot, path)).join(', ');
  return lose('unparseable', `answer could not be parsed (${parsed.problem}); raw output in ${saved}`);
}

function describeLoss(adapter: RegisteredAdapter, reason: LostReason, message: string): string {
  switch (reason) {
    case 'usage_limit':
      return `hit its usage limit ("${message}"); ${adapter.name} cools down for an hour`;
    case 'rate_limited':
      return `rate limited ("${message}")`;
    case 'not_logged_in':
      return `not logged in; run \`${adapter.loginCommand}\``;
    case 'not_installed':
    case 'timeout':
    case 'aborted':
    case 'failed':
    case 'unparseable':
      return message;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}

/** The raw output of one CLI run, kept in the run folder for diagnosis. */
async function saveRaw(ctx: CodeReviewContext, name: string, outcome: AgentRunOutcome): Promise<string[]> {
  const files: Array<[string, string]> = [
    [`${name}.stdout.txt`, outcome.raw.stdout],
    [`${name}.stderr.txt`, outcome.raw.stderr],
  ];
  if (outcome.raw.answerFile !== null) files.push([`${name}.answer.txt`, outcome.raw.answerFile]);
  const written: string[] = [];
  for (const [file, text] of files) {
    const path = join(ctx.artifactsDir, file);
    await writeFile(path, text, { mode: 0o600 });
    written.push(path);
  }
  return written;
}

type PromptFor = ((adapter: RegisteredAdapter) => string) & {
  omitted: ReadonlyArray<{ path: string; reason: string }>;
};

/**
 * Builds the prompt once for the configured diff budget, and once more for each CLI with a smaller prompt cap (an
 * argument-only CLI), saving each in the run folder.
 */
async function promptBuilder(ctx: CodeReviewContext): Promise<PromptFor> {
  const { options, changeSet, input } = ctx;
  const fallback =
    input.prTitle === undefined ? await lastCommitMessage(ctx.repoRoot, changeSet.base.commit).catch(() => null) : null;
  const instructions = await readInstructionFiles(ctx.repoRoot, options.instructions);
  const shared: Omit<ReviewPromptInput, 'diff' | 'omitted'> = {
    title: input.prTitle ?? fallback?.title ?? '(no title given)',
    description: input.prDescription ?? fallback?.description ?? '',
    instructions,
    files: changeSet.files,
  };
  const mask = options.sendSecrets ? (text: string) => text : maskPrompt;
  const build = async (maxBytes: number) => {
    const selection = await selectDiff(changeSet, { maxFiles: options.maxFiles, maxBytes });
    if (!options.sendSecrets) await learnChangedSecrets(changeSet, selection.included);
    const text = mask(buildReviewPrompt({ ...shared, diff: selection.diff, omitted: selection.omitted }));
    return { text, selection };
  };
  const main = await build(options.maxDiffBytes);
  await writeFile(join(ctx.artifactsDir, 'prompt.txt'), main.text, { mode: 0o600 });
  const capped = new Map<string, string>();
  for (const adapter of new Set(ctx.options.cliPreference)) {
    const cap = agentByName(adapter).maxPromptBytes;
    if (cap === undefined || Buffer.byteLength(main.text) <= cap) continue;
    const overhead = Buffer.byteLength(buildReviewPrompt({ ...shared, diff: '', omitted: main.selection.omitted }));
    const smaller = await build(Math.max(1024, Math.min(options.maxDiffBytes, cap - overhead - 4096)));
    capped.set(adapter, smaller.text);
    await writeFile(join(ctx.artifactsDir, `prompt.${adapter}.txt`), smaller.text, { mode: 0o600 });
  }
  const promptFor = ((adapter: RegisteredAdapter) => capped.get(adapter.name) ?? main.text) as PromptFor;
  promptFor.omitted = main.selection.omitted;
  return promptFor;
}

function slotDetail(outcome: SlotOutcome) {
  const base = {
    slot: outcome.slot.slot,
    label: outcome.slot.label,
    adapter: outcome.slot.adapter.name,
    durationMs: outcome.durationMs,
    artifacts: outcome.artifacts,
  };
  return outcome.kind === 'reviewed'
    ? { ...base, status: 'reviewed', reviewerStatus: outcome.answer.status, findings: outcome.answer.findings.length }
    : { ...base, status: outcome.reason, message: outcome.message };
}

function describePool(pool: ReviewerPool) {
  return {
    coolingDown: pool.coolingDown.map((entry) => ({
      adapter: entry.adapter.name,
      until: new Date(entry.until).toISOString(),
      reason: entry.reason,
    })),
    unavailable: pool.unavailable.map((entry) => ({ adapter: entry.adapter.name, reason: entry.probe.message })),
    rejoined: pool.rejoined,
  };
}

/** `2026-11-23 14:05 UTC` */
export function formatUtc(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function noReviewerResult(
  pool: ReviewerPool,
  options: CodeReviewOptions,
  details: Record<string, unknown>,
): ToolResult {
  const cooling = pool.coolingDown.map(
    (entry) => `${entry.adapter.name} is cooling down until ${formatUtc(entry.until)} (${entry.reason})`,
  );
  const unavailable = pool.unavailable.map((entry) => `${entry.adapter.name}: ${entry.probe.message}`);
  if (cooling.length > 0) {
    return result(
      'error',
      `no reviewer available: ${[...cooling, ...unavailable].join('; ')}. Rerun after the cooldown, or add another CLI to code_review.cliPreference.`,
      [],
      details,
    );
  }
  const loggedOut = pool.unavailable.filter((entry) => entry.probe.kind === 'not_logged_in');
  if (loggedOut.length > 0) {
    return result('tool_unavailable', `no reviewer available: ${unavailable.join('; ')}.`, [], details);
  }
  const tried = options.cliPreference.join(', ');
  const installs = pool.unavailable.map((entry) => entry.adapter.installCommand);
  return result(
    'tool_unavailable',
    `no AI reviewer CLI is installed (tried ${tried}); install one, e.g. \`${installs[0] ?? 'npm install -g @openai/codex'}\`, or turn the review off with validation.code_review.enabled: false.`,
    [],
    { ...details, install: installs },
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
