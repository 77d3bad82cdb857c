import { findRepoRoot, findRepoRootIfAny } from '../../core/config/repo-root.js';
import { isTollgateError, TollgateError } from '../../core/errors.js';
import { ONE_SHOT } from '../../core/state/atomic-write.js';
import { checkOutputWritable, writeOutput } from '../../core/state/output-file.js';
import { TOLLGATE_VERSION } from '../../core/version.js';
import { baselinePath, readBaselineEntries, type SecretsBaseline, writeBaseline } from '../../secrets/baseline.js';
import { applyFixtureMode, type FixtureMode, fixturesNote } from '../../secrets/fixtures.js';
import type { PolicyFileReader } from '../../secrets/imported-suppressions.js';
import { loadScanner } from '../../secrets/load-rules.js';
import { defaultSecretsOptions, type SecretsOptions, secretsOptionsSchema } from '../../secrets/options.js';
import { type ParallelScanOptions, ScanWorkers, scanDiskTargets } from '../../secrets/parallel-scan.js';
import {
  type ScanOutcome,
  type ScanTarget,
  type ScanTargetsOptions,
  type SkippedTarget,
  scanBatches,
  scanTargets,
  unexaminedFiles,
} from '../../secrets/scan-targets.js';
import { historyBatches, historyTargets, stagedTargets } from '../../secrets/sources/git-sources.js';
import { ADDED_LINES_POLICY } from '../../secrets/suppressions.js';
import { auditBaseline, renderBaselineAudit } from './baseline-audit.js';
import { DiskListing } from './disk-listing.js';
import { renderScanReport, type ScanFormat, type SecretScanReport } from './report/index.js';
import type { VerifyTransport } from './verify-step.js';

/** `tollgate scan`: the flags after parsing (see `src/cli/commands/scan.ts`). */
export interface ScanCommandFlags {
  paths: string[];
  staged: boolean;
  all: boolean;
  history?: string | undefined;
  format: ScanFormat;
  output?: string | undefined;
  baselineWrite: boolean;
  /** List the baseline's entries that no longer match a finding (implies the whole work tree). */
  baselineAudit?: boolean;
  /** With `baselineAudit`: remove those entries from the baseline file. */
  baselinePrune?: boolean;
  /** List the findings inline allows and the baseline cleared, with who cleared them. */
  reportAllowed?: boolean;
  /** Ask each credential's provider whether it is live (also config `secrets.verify`). */
  verify?: boolean;
  /** Overrides config `secrets.fixtures`: whether findings classified as test fixtures block (exit 1). */
  fixtures?: FixtureMode | undefined;
  /** Overrides config `secrets.maxThreads`: at most this many threads scan files on disk. */
  maxThreads?: number | undefined;
}

export interface ScanCommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Tests only: where fake providers listen and their CA. The CLI never sets it. */
  verifyTransport?: VerifyTransport;
}

const defaultIo = (): ScanCommandIo => ({
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

/** Usage problems, before anything is read: one source of files, baseline flags that fit it, a writable output. */
async function checkScanFlags(flags: ScanCommandFlags, cwd: string): Promise<void> {
  const sources = [flags.paths.length > 0, flags.staged, flags.all, flags.history !== undefined].filter(Boolean).length;
  if (sources > 1)
    throw new TollgateError('usage', 'paths, --staged, --all and --history each pick what to scan: give only one');
  checkBaselineFlags(flags, sources);
  if (flags.output) await checkOutputWritable(flags.output, cwd);
}

/**
 * Runs a scan and renders it. Resolves to the exit code: 0 clean, 1 secrets found or a file that could not be scanned
 * (too large to hold, unreadable); usage problems throw (exit 2).
 */
export async function runScanCommand(flags: ScanCommandFlags, io: ScanCommandIo = defaultIo()): Promise<number> {
  const started = performance.now();
  await checkScanFlags(flags, io.cwd);
  const all = flags.all || flags.baselineAudit === true;
  const needsGit = flags.staged || all || flags.history !== undefined;
  // Without --staged, --all or --history a scan needs no repository: outside one, git is not even started.
  const repoRoot = needsGit ? await findRepoRoot(io.cwd, io.env) : await findRepoRootIfAny(io.cwd, io.env);
  // Before the config: a cap on the command line, an exact count, and the bytes git lists start the workers.
  const cap = { ...threadCap(flags.maxThreads), ...scanThreads(io.env) };
  const workers = diskScan(flags) ? new ScanWorkers(cap) : null;
  try {
    const listing = workers && diskListing(flags, all, repoRoot, io.cwd, workers);
    return await scanAndReport(flags, io, { started, all, repoRoot, listing, workers });
  } catch (error) {
    workers?.stop();
    throw error;
  }
}

interface ScanStart {
  started: number;
  all: boolean;
  repoRoot: string | null;
  listing: DiskListing | null;
  workers: ScanWorkers | null;
}

/** The rest of `runScanCommand` once the listing (and any worker) has begun: config, rules, scan, report. */
async function scanAndReport(
  flags: ScanCommandFlags,
  io: ScanCommandIo,
  { started, all, repoRoot, listing, workers }: ScanStart,
): Promise<number> {
  const audit = flags.baselineAudit === true;
  const { options, network, read } = repoRoot
    ? await loadSecretsOptions(repoRoot, io.env, historyBase(flags.history))
    : { options: defaultSecretsOptions(), network: 'allow' as const, read: undefined };
  const root = repoRoot ?? io.cwd;
  const baselineFile = baselinePath(root, options.baseline);
  // The baseline is read while the rules are built; a rule's error is still the one reported when both fail.
  const baselineRead = flags.baselineWrite
    ? Promise.resolve([])
    : readBaselineEntries(baselineFile, options.baseline, read);
  baselineRead.catch(() => undefined);
  const { scanner, rules, notes, imported } = await loadScanner(root, options, read);
  const entries = await baselineRead;
  const baseline = new Set(entries.map((entry) => entry.fingerprint));

  const reportRejected = flags.reportAllowed === true;
  const scanOptions = scanOptionsFor(flags, { scanner, allowPaths: options.paths, baseline, imported, reportRejected });
  const verifying = flags.verify === true || options.verify;
  const { scope, outcome, targets } = await scanChosenSource(
    flags,
    { all, verifying },
    { root, env: io.env, listing, workers },
    {
      repoRoot: root,
      options,
      scanner,
      rules,
      baseline,
      imported,
      reportRejected,
      ...threadCap(flags.maxThreads ?? options.maxThreads),
      ...scanThreads(io.env),
    },
    scanOptions,
  );
  if (flags.baselineWrite) {
    await writeBaseline(baselineFile, outcome.findings);
    io.stderr(baselineWritten(outcome.findings.length, options.baseline));
    return 0;
  }
  if (audit) return reportBaselineAudit(flags, io, { entries, outcome, file: baselineFile, name: options.baseline });
  // Loaded only with --verify: the verifiers bring the HTTPS client, which a plain scan never needs at start-up.
  const verified = verifying
    ? await (await import('./verify-step.js')).verifyFindings({
        repoRoot: root,
        findings: outcome.findings,
        targets,
        scanner,
        options,
        network,
        transport: io.verifyTransport,
      })
    : { findings: outcome.findings, notes: [] };
  const mode = flags.fixtures ?? options.fixtures;
  const { shown, blocking, fixtures, ignored } = applyFixtureMode(verified.findings, mode);
  const fixtureNote = fixturesNote(mode === 'block' ? 0 : fixtures.length, ignored, 'the findings marked fixture');
  const report: SecretScanReport = {
    tool: 'tollgate',
    version: TOLLGATE_VERSION,
    scope,
    findings: shown,
    blocking: blocking.length,
    fixtures: { mode, count: fixtures.length + ignored, shown: mode === 'ignore' ? 0 : fixtures.length },
    skipped: outcome.skipped,
    baselined: outcome.baselined,
    scannedFiles: outcome.scannedFiles,
    scannedBytes: outcome.scannedBytes,
    durationMs: Math.round(performance.now() - started),
    notes: [...notes, ...verified.notes, ...(fixtureNote ? [fixtureNote] : [])],
    ...(flags.reportAllowed ? { allowed: outcome.suppressed, rejected: outcome.rejected ?? [] } : {}),
  };
  return writeReport(report, outcome, flags, io);
}

interface AuditedBaseline {
  entries: SecretsBaseline['findings'];
  outcome: ScanOutcome;
  /** The baseline file on disk, and its name as configured. */
  file: string;
  name: string;
}

/** `--baseline-audit`: lists the entries no finding matches any more, and removes them with `--baseline-prune`. */
async function reportBaselineAudit(
  flags: ScanCommandFlags,
  io: ScanCommandIo,
  { entries, outcome, file, name }: AuditedBaseline,
): Promise<number> {
  const { live, stale } = auditBaseline(entries, outcome);
  const pruned = flags.baselinePrune === true && stale.length > 0;
  if (pruned) await writeBaseline(file, live);
  const text = renderBaselineAudit(
    { baseline: name, entries: entries.length, stale, pruned },
    flags.format === 'json' ? 'json' : 'markdown',
  );
  await writeOutput(flags.output ?? '-', text, { cwd: io.cwd, stdout: io.stdout });
  return stale.length > 0 && !pruned ? 1 : 0;
}

/** Renders the report where the flags say; the exit code counts blocking findings and files that could not be scanned. */
async function writeReport(
  report: SecretScanReport,
  outcome: ScanOutcome,
  flags: ScanCommandFlags,
  io: ScanCommandIo,
): Promise<number> {
  const text = renderScanReport(report, flags.format);
  await writeOutput(flags.output ?? '-', text, { cwd: io.cwd, stdout: io.stdout });
  const unexamined = unexaminedFiles(outcome.skipped);
  if (unexamined.length > 0) io.stderr(incompleteNotice(unexamined));
  // Findings classified as test fixtures block only with `secrets.fixtures: block` (or `--fixtures block`).
  return report.blocking > 0 || unexamined.length > 0 ? 1 : 0;
}

/** A scan that could not examine a file is incomplete, never clean: it says which files, and exits 1. */
function incompleteNotice(unexamined: readonly SkippedTarget[]): string {
  const listed = unexamined.slice(0, 10).map((file) => `  ${file.path}: ${file.detail}\n`);
  const more =
    unexamined.length > 10 ? [`  … and ${unexamined.length - 10} more (see the report's skipped list)\n`] : [];
  const count = `${unexamined.length} file${unexamined.length === 1 ? '' : 's'}`;
  return [`tollgate: scan incomplete: ${count} could not be scanned\n`, ...listed, ...more].join('');
}

/**
 * Staged changes and history commits are changes: an allow marker they add does not clear their own high or critical
 * secret. Paths and `--all` scan files as they are, with every suppression.
 */
function scanOptionsFor(flags: ScanCommandFlags, options: ScanTargetsOptions): ScanTargetsOptions {
  const changeScan = flags.staged || flags.history !== undefined;
  return changeScan ? { ...options, gate: ADDED_LINES_POLICY } : options;
}

/**
 * Builds the targets the flags pick and scans them: disk files on every core, history as it streams from git (kept
 * whole only when verification needs to read the values again).
 */
async function scanChosenSource(
  flags: ScanCommandFlags,
  mode: { all: boolean; verifying: boolean },
  where: { root: string; env: NodeJS.ProcessEnv; listing: DiskListing | null; workers: ScanWorkers | null },
  parallel: ParallelScanOptions,
  scanOptions: ScanTargetsOptions,
): Promise<{ scope: string; outcome: ScanOutcome; targets: readonly ScanTarget[] }> {
  const git = { repoRoot: where.root, env: where.env };
  if (flags.staged) {
    const targets = await stagedTargets(git);
    return { scope: 'staged', outcome: await scanTargets(targets, scanOptions), targets };
  }
  if (flags.history !== undefined) {
    const scope = `history ${flags.history}`;
    const range = { ...git, range: flags.history };
    if (!mode.verifying) return { scope, outcome: await scanBatches(historyBatches(range), scanOptions), targets: [] };
    const targets = await historyTargets(range);
    return { scope, outcome: await scanTargets(targets, scanOptions), targets };
  }
  // The workers started as the files were listed get the config (and its cap) now, and build their rules while the
  // listing ends.
  const workers = where.workers!;
  workers.post(parallel);
  const targets = await where.listing!.files();
  const outcome = await scanDiskTargets(targets, parallel, workers);
  return { scope: mode.all ? 'all' : 'paths', outcome, targets };
}

/** A scan of files on disk (paths, `--all`), not of changes (`--staged`, `--history`). */
function diskScan(flags: ScanCommandFlags): boolean {
  return !flags.staged && flags.history === undefined;
}

/**
 * The listing of a scan of the disk, begun before the config is loaded. The whole work tree is the repository root as
 * a path: git lists it, and symlinks out of it are not followed.
 */
function diskListing(
  flags: ScanCommandFlags,
  all: boolean,
  repoRoot: string | null,
  cwd: string,
  workers: ScanWorkers,
): DiskListing {
  if (all) return new DiskListing(repoRoot, repoRoot!, [repoRoot!], workers);
  return new DiskListing(repoRoot, cwd, flags.paths.length > 0 ? flags.paths : ['.'], workers);
}

/** `--max-threads`, else config `secrets.maxThreads`: unset, one thread per core as the bytes pay for. */
function threadCap(maxThreads: number | undefined): { maxThreads?: number } {
  return maxThreads === undefined ? {} : { maxThreads };
}

/**
 * `TOLLGATE_SCAN_THREADS`: exactly how many threads scan files on disk (1 = this one only), however few bytes there
 * are and whatever `--max-threads` says. The findings are the same for any value; the bench and the tests compare them.
 */
function scanThreads(env: NodeJS.ProcessEnv): { threads?: number } {
  const raw = env.TOLLGATE_SCAN_THREADS;
  if (raw === undefined || raw === '') return {};
  const threads = Number(raw);
  if (!Number.isInteger(threads) || threads < 1 || threads > 16)
    throw new TollgateError(
      'usage',
      `TOLLGATE_SCAN_THREADS: expected a whole number from 1 to 16, got ${JSON.stringify(raw)}`,
    );
  return { threads };
}

function checkBaselineFlags(flags: ScanCommandFlags, sources: number): void {
  if (flags.baselinePrune && !flags.baselineAudit)
    throw new TollgateError('usage', '--baseline-prune removes what --baseline-audit finds: give both');
  if (!flags.baselineAudit) return;
  if (flags.baselineWrite)
    throw new TollgateError(
      'usage',
      '--baseline-audit and --baseline-write: give one (audit keeps entries, write replaces them)',
    );
  if (sources > 0 && !flags.all)
    throw new TollgateError('usage', '--baseline-audit checks the whole work tree: drop paths, --staged and --history');
  if (flags.format === 'sarif' || flags.format === 'github')
    throw new TollgateError('usage', '--format: --baseline-audit reports as markdown or json');
}

/**
 * The `secrets` section through the shared loader, so `tollgate scan` and `tollgate run` read the same config, and
 * the suppression files as the policy has them (docs/policy.md).
 */
async function loadSecretsOptions(
  repoRoot: string,
  env: NodeJS.ProcessEnv,
  base: string | undefined,
): Promise<{ options: SecretsOptions; network: 'allow' | 'deny'; read: PolicyFileReader | undefined }> {
  // Loaded here, not at start: a scan outside a repository reads no config, and the loader brings every validator's
  // schema (a third of the scan's modules).
  const { loadConfig } = await import('../../core/config/load.js');
  // A range git does not know is reported by the history scan itself, naming `--history`.
  const loaded = await loadConfig({ repoRoot, cwd: repoRoot, env, base }).catch((error: unknown) => {
    if (base === undefined || !isTollgateError(error) || error.code !== 'bad_revision') throw error;
    return loadConfig({ repoRoot, cwd: repoRoot, env });
  });
  return {
    // Parsed once per process: zod's compiled fast path cost ~2.4 ms of a scan's CPU (docs/benchmarks.md, "configcost").
    options: secretsOptionsSchema().parse(loaded.config.secrets, ONE_SHOT),
    network: loaded.config.permissions.network,
    read: loaded.policy?.read,
  };
}

/** A baseline in the repository is policy: the gate reads it as the base has it until a person accepts the edit. */
function baselineWritten(count: number, baseline: string): string {
  const effect = baseline.startsWith('.tollgate/')
    ? 'they no longer block'
    : 'the gate applies it once a person accepts this edit or it is merged into the base (docs/policy.md)';
  return `tollgate: wrote ${count} finding fingerprint${count === 1 ? '' : 's'} to ${baseline}; ${effect}\n`;
}

/** `--history A..B` (or `A...B`) scans what B adds to A: the policy is A's. */
function historyBase(range: string | undefined): string | undefined {
  const match = range === undefined ? null : /^(.+?)\.{2,3}.+$/.exec(range);
  return match?.[1];
}
