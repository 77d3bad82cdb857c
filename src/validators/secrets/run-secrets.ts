import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errorMessage, isTollgateError } from '../../core/errors.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import { byPathLineColumn } from '../../core/text-order.js';
import { baselinePath, readBaseline } from '../../secrets/baseline.js';
import { type FixtureMode, gateFixtures } from '../../secrets/fixtures.js';
import { loadScanner } from '../../secrets/load-rules.js';
import type { SecretsOptions } from '../../secrets/options.js';
import {
  allowedPaths,
  emptyScanOutcome,
  lineSet,
  mergeScanOutcome,
  type ScanOutcome,
  type ScanTarget,
  type ScanTargetsOptions,
  type SkippedTarget,
  scanTargets,
  skipBeforeReading,
} from '../../secrets/scan-targets.js';
import type { SecretScanner } from '../../secrets/scanner.js';
import { scanFileInWindows } from '../../secrets/stream-file.js';
import { formatSuppression, type GateSuppressionPolicy } from '../../secrets/suppressions.js';
import { formatSecretLine, toFinding } from '../../secrets/to-finding.js';
import { explicitTargets, pathsOutside } from './explicit-paths.js';
import { formatHistoryLine, type HistoryScan, historyFinding, scanCommitsSinceBase } from './history-scan.js';
import { scanSubmodules } from './submodule-history.js';

export interface SecretsInput {
  paths?: string[] | undefined;
}

/**
 * The validator: scan the change set's added lines (or whole changed files with `scope: files`, or explicit `paths`
 * from the call), drop baselined findings, and fail with one masked finding per secret.
 */
export async function runSecrets(ctx: ToolContext<SecretsOptions, SecretsInput>): Promise<ToolResult> {
  const { options, changeSet } = ctx;
  let loaded: Awaited<ReturnType<typeof loadScanner>>;
  let baseline: Set<string>;
  try {
    loaded = await loadScanner(ctx.repoRoot, options, ctx.policy?.read);
    baseline = await readBaseline(baselinePath(ctx.repoRoot, options.baseline), options.baseline, ctx.policy?.read);
  } catch (error) {
    const reason = isTollgateError(error) ? error.message : errorMessage(error);
    return result(
      'error',
      `Secret scanning could not start: ${reason}. Fix the \`secrets\` config section and run again.`,
    );
  }

  const outside = await pathsOutside(ctx.repoRoot, ctx.input.paths ?? []);
  if (outside.length > 0) {
    const list = outside.map((path) => JSON.stringify(path)).join(', ');
    return result('invalid_input', `paths: ${list} is outside the repository; pass paths inside ${ctx.repoRoot}.`);
  }
  let targets: ScanTarget[];
  try {
    targets = ctx.input.paths?.length
      ? await explicitTargets(ctx.repoRoot, ctx.input.paths)
      : changeSetTargets(ctx, options);
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    if (code !== 'ENOENT') throw error;
    return result('invalid_input', `paths: ${JSON.stringify(relative(ctx.repoRoot, path ?? ''))} does not exist.`);
  }
  const explicit = Boolean(ctx.input.paths?.length);
  // The commits since the base are part of the change (a call with explicit paths looks at those files only).
  const readsHistory = !explicit && changeSet.hasCommits;
  if (targets.length === 0 && changeSet.skipped.length === 0 && !readsHistory && (explicit || !movesSubmodule(ctx))) {
    return result('passed', 'No changed text files to scan for secrets.');
  }
  const scanOptions: ScanTargetsOptions = {
    scanner: loaded.scanner,
    allowPaths: options.paths,
    baseline,
    baselineLabel: options.baseline,
    imported: loaded.imported,
    gate: await gatePolicy(ctx, baseline, loaded.imported.files),
    signal: ctx.signal,
    onProgress: (done, total) => ctx.progress(`scanned ${done}/${total} files for secrets`),
  };
  if (!explicit && readsOnlySnapshot(ctx, targets)) ctx.doneWithWorkTree?.();
  const outcome = await scanChangedTargets(targets, scanOptions);
  if (!explicit && movesSubmodule(ctx)) {
    mergeScanOutcome(outcome, await scanSubmodules(ctx, scanOptions));
    outcome.findings.sort(byPathLineColumn);
  }
  const inTree = new Set(outcome.findings.map((finding) => finding.fingerprint));
  const history = readsHistory ? await scanCommitsSinceBase(ctx, scanOptions, inTree) : null;
  const verified = await verifyIfAsked(ctx, outcome, targets, loaded.scanner);
  const { skipped, unexamined } = notScanned(ctx, targets, outcome, history);
  const details = {
    scannedFiles: outcome.scannedFiles,
    scannedBytes: outcome.scannedBytes,
    baselined: outcome.baselined,
    suppressions: outcome.suppressed,
    rules: loaded.scanner.ruleCount,
    scope: explicit ? 'paths' : options.scope,
    skipped,
    ...(outcome.binaryRuns.length > 0 ? { scannedAsBinary: outcome.binaryRuns } : {}),
    ...(loaded.notes.length > 0 ? { importNotes: loaded.notes } : {}),
    ...(verified.notes.length > 0 ? { verifyNotes: verified.notes } : {}),
    ...(history ? { history: historyDetails(history) } : {}),
  };
  return secretsResult(
    { ...outcome, findings: verified.findings },
    { skipped: skipped.length, unexamined, details, history, base: changeSet.base.commit, mode: options.fixtures },
  );
}

/**
 * What was not scanned, and of that what was not examined: a changed file the scanner could not read (vanished,
 * unreadable, beyond what can be scanned) or a commit's blob too large means the result cannot be a pass. Generated
 * assets are excluded by `secrets.paths`, and then listed as allowlisted.
 */
function notScanned(
  ctx: ToolContext<SecretsOptions, SecretsInput>,
  targets: readonly ScanTarget[],
  outcome: ScanOutcome,
  history: HistoryScan | null,
): { skipped: SkippedTarget[]; unexamined: SkippedTarget[] } {
  const scanned = new Set(targets.map((target) => target.path));
  const skipped = [
    ...ctx.changeSet.skipped
      .filter((file) => !scanned.has(file.path))
      .map((file) => ({ path: file.path, reason: file.reason, detail: file.detail })),
    ...outcome.skipped,
  ];
  const unexamined = [
    ...(ctx.input.paths?.length ? outcome.skipped : skipped).filter(
      (file) => file.reason === 'unreadable' || file.reason === 'too_large',
    ),
    ...(history?.unexamined ?? []),
  ];
  return { skipped, unexamined };
}

/** What the report and tests see of the commit scan: how many commits, how many this run scanned (the rest cached). */
function historyDetails(history: HistoryScan) {
  return {
    commits: history.commits,
    scanned: history.scanned,
    cached: history.commits - history.scanned,
    ...(history.scannedAsBinary.length > 0 ? { scannedAsBinary: history.scannedAsBinary } : {}),
    secrets: history.secrets.map(({ ruleId, path, line, masked, fingerprint, commits }) => ({
      ruleId,
      path,
      line,
      masked,
      fingerprint,
      commits,
    })),
  };
}

/**
 * Config `secrets.verify`: the gate asks each credential's provider too (same caps, cache and endpoints as `tollgate
 * scan --verify`), so a live one is critical and listed first. The answer never clears a finding: an invalid
 * credential still fails the run, since it was committed and may be valid elsewhere.
 */
async function verifyIfAsked(
  ctx: ToolContext<SecretsOptions, SecretsInput>,
  outcome: ScanOutcome,
  targets: readonly ScanTarget[],
  scanner: SecretScanner,
): Promise<{ findings: ScanOutcome['findings']; notes: string[] }> {
  if (!ctx.options.verify || outcome.findings.length === 0) return { findings: outcome.findings, notes: [] };
  ctx.progress(`asking providers whether ${outcome.findings.length} credential(s) are live`);
  // Loaded only here: its HTTPS client (node:https, tls, http) cost a run that verifies nothing a few ms to load.
  const { verifyFindings } = await import('./verify-step.js');
  return verifyFindings({
    repoRoot: ctx.repoRoot,
    findings: outcome.findings,
    targets,
    scanner,
    options: ctx.options,
    network: ctx.network ?? 'deny',
    signal: ctx.signal,
  });
}

/** Files over validation.maxFileSize are streamed from disk in windows (every byte, bounded memory) when they can be. */
async function scanChangedTargets(
  targets: readonly ScanTarget[],
  scanOptions: ScanTargetsOptions,
): Promise<ScanOutcome> {
  const streamed = emptyScanOutcome();
  const allowed = allowedPaths(scanOptions);
  const rest = targets.filter((target) => {
    if (!('absolute' in target) || skipBeforeReading(target, allowed)) return true;
    try {
      return !scanFileInWindows(target as ScanTarget & { absolute: string }, scanOptions, streamed);
    } catch {
      return true;
    }
  });
  const outcome = await scanTargets(rest, scanOptions);
  mergeScanOutcome(outcome, streamed);
  outcome.findings.sort(byPathLineColumn);
  return outcome;
}

/** Findings fail; otherwise a pass, unless a changed file could not be examined, which makes it incomplete. */
function secretsResult(
  scanned: ScanOutcome,
  input: {
    skipped: number;
    unexamined: readonly SkippedTarget[];
    details: Record<string, unknown>;
    history: HistoryScan | null;
    base: string | null;
    mode: FixtureMode;
  },
): ToolResult {
  const { unexamined } = input;
  const notExamined = unexamined.length > 0 ? ` ${describeUnexamined(unexamined)}` : '';
  // Test fixtures (secrets.fixtures: report) are listed in details.fixtures and counted in the summary, never blocking.
  const gate = gateFixtures(scanned.findings, input.history?.secrets ?? [], input.mode);
  const fixtureNote = gate.note;
  const details = { ...input.details, ...gate.details };
  const outcome = { ...scanned, findings: gate.tree };
  const inHistory = gate.history;
  const commitsNote = input.history ? ` ${input.history.commits} commit(s) since the base scanned.` : '';
  if (outcome.findings.length === 0 && inHistory.length === 0) {
    const summary = `${passedSummary(outcome, input.skipped)}${commitsNote}${fixtureNote ? ` ${fixtureNote}` : ''}${notExamined}`;
    return result(unexamined.length > 0 ? 'incomplete' : 'passed', summary, [], details);
  }
  const summary = [
    outcome.findings.length > 0 ? failedSummary(outcome) : '',
    inHistory.length > 0 ? historySummary(inHistory) : '',
  ].filter(Boolean);
  const findings = [
    ...outcome.findings.map(toFinding),
    ...inHistory.map((secret) => historyFinding(secret, input.base)),
  ];
  if (fixtureNote) summary.push(fixtureNote);
  return result('failed', `${summary.join(' ')}${notExamined}`, findings, {
    ...details,
    secrets: outcome.findings.map(
      ({ ruleId, path, line, column, masked, fingerprint, isNew, suppression, verification, verificationReason }) => ({
        ruleId,
        path,
        line,
        column,
        masked,
        fingerprint,
        isNew,
        ...(suppression ? { suppressionRejected: suppression } : {}),
        ...(verification ? { verification } : {}),
        ...(verificationReason ? { verificationReason } : {}),
      }),
    ),
  });
}

function describeUnexamined(files: readonly SkippedTarget[]): string {
  const listed = files
    .slice(0, 5)
    .map((file) => `${file.path} (${file.detail})`)
    .join(', ');
  const more = files.length > 5 ? ', …' : '';
  const they = files.length === 1 ? 'it is' : 'they are';
  return `${files.length} changed file${files.length === 1 ? '' : 's'} could not be examined: ${listed}${more}; the change is not validated until ${they}.`;
}

/**
 * What the gate lets suppressions clear: an inline allow on a line this change added does not clear a high or critical
 * secret, nor does a baseline that is not part of the repository (tracked, or at least in this change's diff).
 */
async function gatePolicy(
  ctx: ToolContext<SecretsOptions, SecretsInput>,
  baseline: ReadonlySet<string>,
  importedFrom: readonly string[],
): Promise<GateSuppressionPolicy> {
  const added = new Map(ctx.changeSet.files.map((file) => [file.path, lineSet(file.addedLines)]));
  const baselineFile = baselinePath(ctx.repoRoot, ctx.options.baseline);
  const reviewed = await Promise.all(importedFrom.map((file) => inRepository(ctx, resolve(ctx.repoRoot, file))));
  return {
    addedLine: (path, line) => added.get(path)?.(line) ?? false,
    baselineCommitted: baseline.size > 0 && (await inRepository(ctx, baselineFile)),
    importsCommitted: reviewed.every(Boolean),
  };
}

/** Tracked, or at least in this change's diff: a file reviewers see. */
async function inRepository(ctx: ToolContext<SecretsOptions, SecretsInput>, absolute: string): Promise<boolean> {
  const path = relative(ctx.repoRoot, absolute).split(sep).join('/');
  // `.tollgate/` is tollgate's own state folder, git-ignored by design even before its `.gitignore` exists.
  if (path.startsWith('..') || isAbsolute(path) || path.startsWith('.tollgate/')) return false;
  if (ctx.changeSet.files.some((file) => file.path === path && file.status !== 'deleted')) return true;
  const tracked = await ctx.runProcess('git', ['ls-files', '--error-unmatch', '--', path], {
    cwd: ctx.repoRoot,
    env: ctx.env,
    timeoutMs: 10_000,
  });
  return tracked.exitCode === 0;
}

/** Whether the rest of this call reads the snapshot alone: the change set's files (each checked against its blob id)
 * and git's objects; not paths the call gave, files streamed in windows, submodules or the providers' verification. */
function readsOnlySnapshot(ctx: ToolContext<SecretsOptions, SecretsInput>, targets: readonly ScanTarget[]): boolean {
  return !ctx.options.verify && !movesSubmodule(ctx) && targets.every((target) => !('absolute' in target));
}

function movesSubmodule(ctx: ToolContext<SecretsOptions, SecretsInput>): boolean {
  return ctx.changeSet.files.some((file) => file.submodule?.to);
}

function changeSetTargets(ctx: ToolContext<SecretsOptions, SecretsInput>, options: SecretsOptions): ScanTarget[] {
  const skipped = new Map(ctx.changeSet.skipped.map((file) => [file.path, file.reason]));
  const live = ctx.changeSet.files.filter((file) => file.status !== 'deleted' && file.status !== 'submodule');
  // What git calls binary may be UTF-16 or Latin-1 text: the scanner decodes it, whole (git has no lines for it),
  // and skips it only if it is binary in every encoding.
  const binaryText: ScanTarget[] = live
    .filter((file) => file.binary && (!skipped.has(file.path) || skipped.get(file.path) === 'binary'))
    .map((file) => ({ path: file.path, read: () => ctx.changeSet.readBytes(file.path) }));
  return [...binaryText, ...textTargets(ctx, options, live, skipped)];
}

function textTargets(
  ctx: ToolContext<SecretsOptions, SecretsInput>,
  options: SecretsOptions,
  live: ToolContext<SecretsOptions, SecretsInput>['changeSet']['files'],
  skipped: ReadonlyMap<string, string>,
): ScanTarget[] {
  return live
    .filter((file) => !file.binary)
    .filter((file) => !skipped.has(file.path) || skipped.get(file.path) === 'too_large')
    .filter((file) => options.scope === 'files' || file.addedLines.length > 0)
    .map((file) => ({
      path: file.path,
      // Over `validation.maxFileSize` the change set does not hold the content: the scanner reads it from disk
      // itself (in windows when large), since a secret at the end of a big file is still a secret.
      ...(skipped.get(file.path) === 'too_large'
        ? largeTarget(ctx, file.path)
        : { read: () => ctx.changeSet.readText(file.path) }),
      newLines: file.addedLines,
      ...(options.scope === 'added' ? { onlyLines: file.addedLines } : {}),
    }));
}

/**
 * A file over `validation.maxFileSize`, streamed from disk. The snapshot's blob id checks the streamed bytes: when the
 * file changed since the snapshot was taken, the snapshot's blob is read whole instead.
 */
function largeTarget(ctx: ToolContext<SecretsOptions, SecretsInput>, path: string) {
  const absolute = join(ctx.repoRoot, path);
  const snapshot = ctx.changeSet.largeFile?.(path) ?? null;
  if (snapshot === null) return { absolute, read: () => readFile(absolute) };
  return {
    absolute,
    expectedBlob: { id: snapshot.blobId, objectFormat: snapshot.objectFormat },
    read: () => snapshot.readWhole(),
  };
}

function passedSummary(outcome: ScanOutcome, skipped: number): string {
  const parts = [`No secrets in ${outcome.scannedFiles} file${outcome.scannedFiles === 1 ? '' : 's'}`];
  if (outcome.baselined > 0)
    parts.push(`${outcome.baselined} baselined finding${outcome.baselined === 1 ? '' : 's'} ignored`);
  if (skipped > 0) parts.push(`${skipped} file${skipped === 1 ? '' : 's'} skipped (see details.skipped)`);
  const binary = outcome.binaryRuns.length;
  if (binary > 0)
    parts.push(
      `${binary} binary file${binary === 1 ? '' : 's'} scanned for printable text only (details.scannedAsBinary)`,
    );
  return `${parts.join('; ')}.${suppressionList(outcome)}`;
}

function historySummary(secrets: ReadonlyArray<Parameters<typeof formatHistoryLine>[0]>): string {
  const shown = secrets.slice(0, 5).map(formatHistoryLine);
  const more = secrets.length > 5 ? ` (and ${secrets.length - 5} more)` : '';
  return `${secrets.length} secret${secrets.length === 1 ? '' : 's'} in commits since the base (their files or messages), pushed with the branch though not in the tree${more}: ${shown.join('; ')}. Rewrite ${secrets.length === 1 ? 'that commit' : 'those commits'} before pushing (each finding says how), and rotate any secret that left this machine.`;
}

function failedSummary(outcome: ScanOutcome): string {
  const shown = outcome.findings.slice(0, 5).map(formatSecretLine);
  const more = outcome.findings.length > 5 ? ` (and ${outcome.findings.length - 5} more)` : '';
  const rejected = outcome.findings.filter((finding) => finding.suppression).length;
  const rejectedNote =
    rejected > 0
      ? ` ${rejected} of them carr${rejected === 1 ? 'ies' : 'y'} a suppression this gate does not accept (added by this change, or in an unreviewed baseline): a person must waive ${rejected === 1 ? 'it' : 'them'}.`
      : '';
  return `${outcome.findings.length} secret${outcome.findings.length === 1 ? '' : 's'} found${more}: ${shown.join('; ')}. Remove each one, rotate it, and read it from the environment instead; whether one is not a secret is for a person to decide.${rejectedNote}${suppressionList(outcome)}`;
}

/** Every suppression that cleared a finding, listed so a reviewer of the report sees what was let through. */
function suppressionList(outcome: ScanOutcome): string {
  if (outcome.suppressed.length === 0) return '';
  const shown = outcome.suppressed.slice(0, 20).map((item) => `- ${formatSuppression(item)}`);
  if (outcome.suppressed.length > 20)
    shown.push(`- … and ${outcome.suppressed.length - 20} more (details.suppressions)`);
  return `\n\nSuppressions applied (${outcome.suppressed.length}):\n${shown.join('\n')}`;
}
