import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import pLimit from 'p-limit';
import { readAgentCliVersion } from '../../agents/cli-version.js';
import { classifyFailureText } from '../../agents/failure-text.js';
import { markAdapterUnhealthy, type ProbeResult } from '../../agents/health.js';
import { agentByName, type RegisteredAdapter } from '../../agents/index.js';
import { assignSlots, buildReviewerPool, type ReviewSlot } from '../../agents/reviewer-pool.js';
import { type AgentRunOutcome, runAgent } from '../../agents/run-agent.js';
import { atLeast } from '../../core/finding.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import { reviewAnswerJsonSchema } from './answer.js';
import { selectDiff } from './diff-budget.js';
import type { CodeReviewInput } from './input.js';
import { readInstructionFiles } from './instructions.js';
import { learnChangedSecrets, maskPrompt } from './mask-secrets.js';
import { agentSettingsFor, type CodeReviewOptions } from './options.js';
import { parseReviewAnswer } from './parse-answer.js';
import { readPathInstructions } from './path-instructions.js';
import { buildRepairPrompt, buildReviewPrompt, type ReviewPromptInput } from './prompt.js';
import { collectFindings } from './review-findings.js';
import {
  describePool,
  type LostReason,
  noReviewerResult,
  overallStatus,
  type SlotOutcome,
  slotDetail,
  summarize,
} from './review-outcome.js';
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

/** Left of the tool's budget for the work after the reviews (tree check, findings). */
const BUDGET_MARGIN_MS = 5_000;

export async function runCodeReview(
  ctx: CodeReviewContext,
  overrides: Partial<CodeReviewDeps> = {},
): Promise<ToolResult> {
  const deps: CodeReviewDeps = { now: Date.now, env: ctx.env, snapshotTree: snapshotWorkTree, ...overrides };
  const { options, changeSet } = ctx;
  const recorded = { trivialChangeDeclaration: ctx.input.trivialChangeDeclaration ?? null };
  const skipped = skipWithoutReview(ctx, recorded);
  if (skipped) return skipped;

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
  const reviewers = describeReviewers(ctx, deps, slots);
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
    reviewers: await reviewers,
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

/**
 * Each CLI that reviews, with its version (`--version`) and the model
 * configured for it (null: the CLI's default), for the report and telemetry. Read while the reviews run.
 */
function describeReviewers(
  ctx: CodeReviewContext,
  deps: CodeReviewDeps,
  slots: readonly ReviewSlot[],
): Promise<Array<{ cli: string; cliVersion: string | null; model: string | null }>> {
  const read = { cwd: ctx.repoRoot, env: deps.env, runProcess: ctx.runProcess, signal: ctx.signal };
  // One process per CLI, however many slots it has.
  const adapters = [...new Map(slots.map((slot) => [slot.adapter.name, slot.adapter])).values()];
  return Promise.all(
    adapters.map(async (adapter) => ({
      cli: adapter.name,
      cliVersion: await readAgentCliVersion(adapter, read).catch(() => null),
      model: agentSettingsFor(ctx.options, adapter.name).model ?? null,
    })),
  );
}

/** A declared-trivial change (when config allows skipping it) or an empty one needs no reviewer. */
function skipWithoutReview(ctx: CodeReviewContext, recorded: Record<string, unknown>): ToolResult | null {
  const trivial = ctx.input.trivialChangeDeclaration;
  if (trivial?.isTrivial && ctx.skipTrivial) {
    return result(
      'skipped_trivial',
      `skipped: the change was declared trivial (${trivial.reason}) and validation.skipTrivial lists code_review`,
      [],
      recorded,
    );
  }
  if (ctx.changeSet.isEmpty) {
    return result('skipped_no_changes', 'No changes detected against the base. Skipping review.', [], recorded);
  }
  return null;
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
      answerSchema: reviewAnswerJsonSchema(),
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
  const general = await readInstructionFiles(ctx.repoRoot, options.instructions);
  const changedPaths = changeSet.files.filter((file) => file.status !== 'deleted').map((file) => file.path);
  const scoped = await readPathInstructions(ctx.repoRoot, changedPaths, new Set(options.instructions));
  const instructions = [...general, ...scoped];
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
