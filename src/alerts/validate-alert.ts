import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { markAdapterUnhealthy } from '../agents/health.js';
import { buildReviewerPool } from '../agents/reviewer-pool.js';
import type { AgentAdapter, AgentName, AgentSettings } from '../agents/types.js';
import { loadConfig } from '../core/config/load.js';
import { findRepoRoot } from '../core/config/repo-root.js';
import { coreSections } from '../core/config/schema.js';
import { TollgateError } from '../core/errors.js';
import { packageFile } from '../core/package-files.js';
import { ensureTollgateDir } from '../core/state/tollgate-dir.js';
import { secretsOptionsSchema } from '../validators/secrets/options.js';
import { streamLog } from './agent-call.js';
import { type AnalysisSlot, listWorkspaceFiles, runAnalysis } from './analysis-stage.js';
import { type ChallengeResult, challengeVerdictOf } from './challenge.js';
import { runChallenge } from './challenge-stage.js';
import { cloneFull, copyClone, gitAuthEnv } from './clone.js';
import { confidenceLabel } from './confidence.js';
import { type EvalResult, evaluateReport, formatEvalResult } from './evals.js';
import { fetchAlert } from './github-rest.js';
import { type JudgeDecision, runJudge } from './judge-stage.js';
import { findLocalFinding } from './local-finding.js';
import { createRedactor } from './mask.js';
import { AlertWriter } from './output-writer.js';
import { analysisPrompt, challengePrompt, type JudgeCandidate, judgePrompt } from './prompts.js';
import { parseReport } from './report.js';
import { discoverSkills, type Skill } from './skills.js';
import { renderSummary, type SlotSummary, type ValidateAlertSummary } from './summary.js';
import { type AlertSecrets, type AlertSubject, VERDICT_EXIT_CODES, VERDICTS, type Verdict } from './types.js';
import { addUsage, type CallUsage } from './usage.js';

export type AlertTarget =
  | { kind: 'github'; owner: string; repo: string; alertId: string }
  | { kind: 'local'; fingerprint: string };

export interface ValidateAlertOptions {
  target: AlertTarget;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Overrides `alerts.analyses`. */
  analyses?: number;
  /** Overrides `alerts.agents`. */
  agents?: AgentName[];
  /** Overrides `alerts.timeouts.analysis` (ms). */
  timeoutMs?: number;
  /** Root of the output tree; default `<repo>/.tollgate/alerts` inside a repository, else `./analysis`. */
  outDir?: string;
  json: boolean;
  showUsage: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}

const SLUG = /^[A-Za-z0-9_.-]+$/;
/** Variables that hold tollgate's GitHub credentials: agents never inherit them. */
const CREDENTIAL_ENV = ['GITHUB_TOKEN', 'GH_TOKEN', 'GH_ENTERPRISE_TOKEN', 'GITHUB_ENTERPRISE_TOKEN'];

function checkSlug(value: string, what: string): void {
  if (!SLUG.test(value) || value === '.' || value === '..') {
    throw new TollgateError(
      'usage',
      `${what}: expected letters, digits, ".", "_" or "-", got ${JSON.stringify(value)}`,
    );
  }
}

/** validate-alert end to end; resolves to the exit code of the winning verdict (0 FP, 1 TP, 3 inconclusive). */
export async function runValidateAlert(options: ValidateAlertOptions): Promise<number> {
  const repoRoot = await findRepoRoot(options.cwd, options.env).catch(() => null);
  const loaded = repoRoot ? await loadConfig({ repoRoot, cwd: options.cwd, env: options.env }) : null;
  const config = loaded ? loaded.config.alerts : coreSections.alerts.parse(undefined);
  const analyses = options.analyses ?? config.analyses;
  const token = options.env.GITHUB_TOKEN || options.env.GH_TOKEN || undefined;
  const credentials = token ? [token] : [];

  // 1. The alert, and the values that must never be written in clear.
  let subject: AlertSubject;
  let secrets: AlertSecrets;
  let cloneUrl: string;
  const t = options.target;
  if (t.kind === 'github') {
    checkSlug(t.owner, 'OWNER/REPO');
    checkSlug(t.repo, 'OWNER/REPO');
    if (!/^\d+$/.test(t.alertId))
      throw new TollgateError('usage', `ALERT_ID: expected a number, got ${JSON.stringify(t.alertId)}`);
    const redact = createRedactor({ credentials });
    const apiUrl = options.env.GITHUB_API_URL || 'https://api.github.com';
    const fetched = await fetchAlert(t.owner, t.repo, t.alertId, { apiUrl, token, redact });
    const secret = fetched.alert.secret ?? undefined;
    secrets = { credentials, ...(secret ? { alertSecret: secret } : {}) };
    cloneUrl = fetched.cloneUrl;
    subject = {
      source: 'github',
      owner: t.owner,
      repo: t.repo,
      alertId: t.alertId,
      secretType: fetched.alert.secret_type,
      secretTypeDisplayName: fetched.alert.secret_type_display_name ?? fetched.alert.secret_type,
      maskedSecret: secret ? createRedactor({ credentials: [], alertSecret: secret })(secret) : '(hidden by GitHub)',
      ...(fetched.alert.state ? { state: fetched.alert.state } : {}),
      ...(fetched.alert.validity ? { validity: fetched.alert.validity } : {}),
      resolution: fetched.alert.resolution ?? null,
      ...(fetched.alert.created_at ? { createdAt: fetched.alert.created_at } : {}),
      ...(fetched.alert.html_url ? { htmlUrl: fetched.alert.html_url } : {}),
      locations: fetched.locations,
    };
  } else {
    if (!repoRoot)
      throw new TollgateError('not_a_repo', '--local: run it inside the git repository that `tollgate scan` scanned');
    const secretsOptions = secretsOptionsSchema.parse(loaded?.config.secrets);
    const found = await findLocalFinding({
      repoRoot,
      repoName: basename(repoRoot),
      fingerprint: t.fingerprint,
      secretsOptions,
      env: options.env,
    });
    subject = found.subject;
    secrets = { credentials, alertSecret: found.secret };
    cloneUrl = repoRoot;
  }
  const redact = createRedactor(secrets);

  // 2. Where it goes: a fresh alert folder (a stale final-report.md never survives a failed run).
  const outRoot = options.outDir
    ? resolve(options.cwd, options.outDir)
    : repoRoot
      ? join(ensureTollgateDir(repoRoot).root, 'alerts')
      : resolve(options.cwd, 'analysis');
  const alertDir = join(outRoot, subject.owner, subject.repo, subject.alertId);
  const writer = new AlertWriter(alertDir, redact);
  await writer.remove(alertDir);
  await mkdir(alertDir, { recursive: true, mode: 0o700 });

  // 3. Agents: the healthy ones, in preference order.
  const preference = options.agents ?? config.agents;
  const pool = await buildReviewerPool({
    preference,
    wanted: preference.length,
    repoRoot: repoRoot ?? options.cwd,
    env: options.env,
    now: Date.now(),
  });
  if (pool.healthy.length === 0) {
    const why = [
      ...pool.unavailable.map((item) => `${item.adapter.name}: ${item.probe.message}`),
      ...pool.coolingDown.map((item) => `${item.adapter.name}: cooling down after "${item.reason}"`),
    ];
    throw new TollgateError(
      'usage',
      `no agent CLI can run the analyses (alerts.agents: ${preference.join(', ')}); install or log in to one`,
      why,
    );
  }
  const settingsOf = (adapter: AgentAdapter): AgentSettings => {
    const own = config.adapters[adapter.name];
    return {
      thinkingBudget: own?.thinkingBudget ?? 'medium',
      allowToolUse: true,
      maxTurns: config.maxTurns,
      ...(own?.model ? { model: own.model } : {}),
    };
  };
  const agentEnv: NodeJS.ProcessEnv = { ...options.env };
  for (const name of CREDENTIAL_ENV) delete agentEnv[name];
  const onUsageLimit = async (slot: { adapter: AgentAdapter; status: string; message?: string }) => {
    if (repoRoot && slot.status === 'usage_limit') {
      await markAdapterUnhealthy(repoRoot, slot.adapter.name, slot.message ?? 'usage limit', new Date()).catch(
        () => {},
      );
    }
  };

  // 4. Prepare: one full-history clone, then a fast copy per analysis (or per-analysis clones if it failed).
  const gitOptions = { env: gitAuthEnv(options.env, token), redact, timeoutMs: 600_000 };
  const commits = subject.locations.flatMap((location) => (location.commitSha ? [location.commitSha] : []));
  const sharedRepo = join(alertDir, '_shared_repo');
  const shared = await cloneFull(cloneUrl, sharedRepo, { ...gitOptions, commits });
  const notes: string[] = [];
  if (!shared.ok) notes.push(`the shared clone failed (${shared.message}); each analysis cloned for itself`);

  const [analysisSkills, challengerSkills, judgeSkills] = await Promise.all([
    discoverSkills('analysis', repoRoot),
    discoverSkills('challenger', repoRoot),
    discoverSkills('judge', repoRoot),
  ]);
  const template = await readFile(packageFile('skills/analysis/_report-template.md'), 'utf8');

  // 5. Analyses, concurrently.
  const limit = pLimit(analyses);
  const slots = await Promise.all(
    Array.from({ length: analyses }, (_, index) =>
      limit(async (): Promise<AnalysisSlot> => {
        const adapter = pool.healthy[index % pool.healthy.length]!;
        const workspace = join(alertDir, randomUUID());
        for (const dir of ['scripts', 'logs']) await mkdir(join(workspace, dir), { recursive: true, mode: 0o700 });
        const repoCopy = shared.ok
          ? await copyClone(sharedRepo, join(workspace, 'repo'), cloneUrl, gitOptions)
          : await cloneFull(cloneUrl, join(workspace, 'repo'), { ...gitOptions, commits });
        if (!repoCopy.ok) notes.push(`analysis ${index}: no repository copy (${repoCopy.message})`);
        const prompt = analysisPrompt({
          subject,
          workspace,
          index,
          count: analyses,
          hasRepo: repoCopy.ok,
          skills: analysisSkills,
          template,
        });
        const slot = await runAnalysis({
          index,
          count: analyses,
          adapter,
          settings: settingsOf(adapter),
          workspace,
          prompt,
          timeoutMs: options.timeoutMs ?? config.timeouts.analysis,
          minResponseLength: config.minResponseLength,
          maxContinuationAttempts: config.maxContinuationAttempts,
          env: agentEnv,
        });
        await onUsageLimit(slot);
        await writer.write(join(workspace, 'stream.log'), streamLog(slot.calls));
        return slot;
      }),
    ),
  );

  // 6. Reports and their evals (on the raw text, so the secret check can see it; only masked copies are written).
  const evals = new Map<number, EvalResult>();
  for (const slot of slots) {
    if (slot.report === null) continue;
    await writer.write(`report-${slot.index}.md`, slot.report);
    await writer.write(join(slot.workspace, 'report.md'), slot.report);
    evals.set(
      slot.index,
      evaluateReport(slot.report, {
        expected: { repository: `${subject.owner}/${subject.repo}`, alertId: subject.alertId },
        workspaceFiles: await listWorkspaceFiles(slot.workspace),
        ...(secrets.alertSecret ? { secret: secrets.alertSecret } : {}),
      }),
    );
  }

  // 7. Challenges, one per report, by another CLI where there is one.
  const challenges = new Map<number, ChallengeResult>();
  await Promise.all(
    slots.map((slot) =>
      limit(async () => {
        const dir = `challenge-${slot.index}`;
        if (slot.report === null) {
          const result: ChallengeResult = {
            status: 'skipped',
            reasoning: `analysis ${slot.index} has no report (${slot.status})`,
          };
          challenges.set(slot.index, result);
          await writer.writeJson(`${dir}.json`, result);
          return;
        }
        const adapter = pool.healthy[(slot.index + 1) % pool.healthy.length]!;
        const { result, call } = await runChallenge({
          adapter,
          settings: settingsOf(adapter),
          workspace: slot.workspace,
          prompt: challengePrompt({
            subject,
            index: slot.index,
            workspace: slot.workspace,
            report: redact(slot.report),
            skills: challengerSkills,
          }),
          timeoutMs: config.timeouts.challenge,
          env: agentEnv,
        });
        await onUsageLimit({ adapter, status: call.outcome, ...(call.message ? { message: call.message } : {}) });
        challenges.set(slot.index, result);
        await writer.write(join(dir, 'stream.log'), streamLog([call]));
        await writer.writeJson(`${dir}.json`, { agent: adapter.name, ...result });
        if (options.showUsage) await writer.writeJson(join(dir, 'diagnostics.json'), diagnostics([call], []));
      }),
    ),
  );

  // 8. The judge.
  const candidates = slots.filter((slot) => slot.report !== null && slot.status === 'completed');
  const requiredSkills = analysisSkills.filter((skill) => skill.required).map((skill) => skill.name);
  const complianceOf = (slot: AnalysisSlot) => compliance(slot.report ?? '', requiredSkills);
  const judgeCandidates: JudgeCandidate[] = slots.map((slot) => ({
    index: slot.index,
    agent: slot.adapter.name,
    report: slot.status === 'completed' && slot.report !== null ? redact(slot.report) : null,
    ...(slot.status === 'completed' ? {} : { failure: `${slot.status}: ${slot.message ?? ''}` }),
    evals: evals.has(slot.index) ? formatEvalResult(evals.get(slot.index)!) : 'not run',
    compliance: complianceOf(slot).text,
    challenge: describeChallenge(challenges.get(slot.index)),
  }));
  const judgeAdapter = pool.healthy[0]!;
  const { decision, calls: judgeCalls } = await runJudge({
    adapter: judgeAdapter,
    settings: settingsOf(judgeAdapter),
    cwd: alertDir,
    prompt: judgePrompt(subject, judgeCandidates, judgeSkills),
    candidates: candidates.map((slot) => ({
      index: slot.index,
      evalScore: evals.get(slot.index)?.score ?? 0,
      evalPassed: evals.get(slot.index)?.passed ?? false,
      challenge: challengeVerdictOf(challenges.get(slot.index) ?? { status: 'skipped', reasoning: '' }),
    })),
    timeoutMs: config.timeouts.judge,
    env: agentEnv,
  });
  if (judgeCalls.length > 0) await writer.write('judge.stream.log', streamLog(judgeCalls));

  // 9. The winner, the summary and the per-workspace diagnostics.
  const winnerSlot = 'winner' in decision ? slots[decision.winner] : undefined;
  const winnerReport = winnerSlot?.report ? parseReport(winnerSlot.report) : undefined;
  const verdict: Verdict = (VERDICTS as readonly string[]).includes(winnerReport?.verdict ?? '')
    ? (winnerReport!.verdict as Verdict)
    : 'INCONCLUSIVE';
  if (winnerSlot?.report) await writer.write('final-report.md', winnerSlot.report);
  const slotSummaries: SlotSummary[] = slots.map((slot) => {
    const parsed = slot.report ? parseReport(slot.report) : undefined;
    const evalResult = evals.get(slot.index);
    const challenge = challenges.get(slot.index);
    return {
      index: slot.index,
      agent: slot.adapter.name,
      workspace: slot.workspace,
      status: slot.status,
      ...(slot.message ? { message: redact(slot.message) } : {}),
      continuations: slot.continuations,
      ...(parsed?.verdict ? { verdict: parsed.verdict } : {}),
      ...(parsed?.confidenceScore !== undefined ? { confidence: parsed.confidenceScore } : {}),
      evals: evalResult
        ? {
            passed: evalResult.passed,
            score: Math.round(evalResult.score * 100) / 100,
            failed: evalResult.checks.filter((c) => !c.passed).map((c) => c.id),
          }
        : null,
      challenge: challenge ? challengeVerdictOf(challenge) : null,
      compliance: complianceOf(slot).percent,
      usage: slot.calls.reduce<CallUsage>((total, call) => addUsage(total, call.usage), {}),
    };
  });
  const summary: ValidateAlertSummary = {
    repository: `${subject.owner}/${subject.repo}`,
    alertId: subject.alertId,
    source: subject.source,
    secretType: subject.secretType,
    verdict,
    confidence: winnerReport?.confidenceScore ?? null,
    confidenceLabel: winnerReport?.confidenceScore !== undefined ? confidenceLabel(winnerReport.confidenceScore) : null,
    riskLevel: winnerReport?.riskLevel ?? null,
    keyFinding: winnerReport?.keyFinding ? redact(winnerReport.keyFinding) : null,
    winner: 'winner' in decision ? decision.winner : null,
    decidedBy: decision.source,
    ...(decisionNote(decision) ? { note: redact(decisionNote(decision)!) } : {}),
    notes: notes.map(redact),
    outputDir: alertDir,
    finalReport: winnerSlot?.report ? join(alertDir, 'final-report.md') : null,
    slots: slotSummaries,
  };
  await writer.writeJson('judge.json', {
    winner_index: summary.winner,
    decided_by: decision.source,
    ...(decision.source === 'judge' ? { scores: decision.answer.scores } : {}),
    ...(summary.note ? { note: summary.note } : {}),
    problems: decision.problems,
    agent: judgeCalls.length > 0 ? judgeAdapter.name : null,
    candidates: slotSummaries.map(({ usage: _usage, ...rest }) => rest),
    evals: Object.fromEntries([...evals].map(([index, result]) => [index, result])),
  });
  if (options.showUsage) {
    for (const slot of slots) {
      await writer.writeJson(
        join(slot.workspace, 'diagnostics.json'),
        diagnostics(slot.calls, complianceOf(slot).used, evals.get(slot.index)),
      );
    }
  }
  // Agents wrote scripts, logs and artifacts themselves: mask whatever secret slipped into them.
  await writer.scrubTree(alertDir);
  const rendered = renderSummary(summary, { json: options.json, showUsage: options.showUsage });
  options.stdout(redact(rendered));
  return VERDICT_EXIT_CODES[verdict];
}

function decisionNote(decision: JudgeDecision): string | undefined {
  return 'note' in decision ? decision.note : undefined;
}

function describeChallenge(result: ChallengeResult | undefined): string {
  if (!result) return 'not run';
  if (result.status === 'skipped') return `skipped: ${result.reasoning}`;
  if (result.status === 'failed') return `${result.verdict} (the challenge failed: ${result.reasoning})`;
  const gaps = result.evidence_gaps.length > 0 ? `\nEvidence gaps: ${result.evidence_gaps.join('; ')}` : '';
  const against =
    result.contradicting_evidence.length > 0
      ? `\nContradicting evidence: ${result.contradicting_evidence.join('; ')}`
      : '';
  return `${result.verdict}: ${result.reasoning}${gaps}${against}`;
}

/** Required skills the report's Methodology checklist ticks. */
function compliance(
  report: string,
  required: readonly string[],
): { percent: number | null; used: string[]; text: string } {
  const used = parseReport(report).methodology;
  if (required.length === 0) return { percent: null, used, text: 'no required skills' };
  const applied = required.filter((name) => used.includes(name));
  const missing = required.filter((name) => !used.includes(name));
  const percent = Math.round((applied.length / required.length) * 100);
  return {
    percent,
    used,
    text: `${percent}% of required skills applied${missing.length > 0 ? ` (missing: ${missing.join(', ')})` : ''}`,
  };
}

function diagnostics(
  calls: ReadonlyArray<{ agent: string; argv: string[]; outcome: string; durationMs: number; usage: CallUsage }>,
  skills: readonly string[],
  evalResult?: EvalResult,
) {
  return {
    calls: calls.map(({ agent, argv, outcome, durationMs, usage }) => ({ agent, argv, outcome, durationMs, usage })),
    skillsApplied: skills,
    usage: calls.reduce<CallUsage>((total, call) => addUsage(total, call.usage), {}),
    ...(evalResult ? { evals: evalResult } : {}),
  };
}

export type { Skill };
