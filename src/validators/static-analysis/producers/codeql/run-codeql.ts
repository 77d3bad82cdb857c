import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { appendAll } from '../../../../core/append-all.js';
import type { ChangedFile } from '../../../../core/change-set/types.js';
import { formatDuration, formatSize } from '../../../../core/config/units.js';
import { ensureTollgateDir } from '../../../../core/state/tollgate-dir.js';
import { compareText } from '../../../../core/text-order.js';
import { dedupeIssues } from '../../issues-to-findings.js';
import type { StaticAnalysisOptions } from '../../options.js';
import type { SarifIssue } from '../../reader/read-sarif.js';
import { knownMissing, rememberMissing } from '../missing-analyzers.js';
import { firstOutputLine, type ProducerInput, type ProducerOutcome, type SarifLog } from '../producer.js';
import { analysisMemoryPath, recallLanguage, rememberLanguage } from './analysis-memory.js';
import { databaseAnalyzeArgs, databaseCreateArgs, resolveLanguagesArgs } from './codeql-argv.js';
import { diffRangeRows, writeDiffRangePack } from './diff-range-pack.js';
import { languageFingerprint } from './language-fingerprint.js';
import { type Failure, type LanguageOutcome, stepFailure } from './language-outcome.js';
import { sourceSizes } from './language-size.js';
import { CODEQL_LANGUAGES, type CodeqlLanguage, codeqlLanguageOf, querySpecFor } from './languages.js';
import { createOverlayDatabase, readCliVersion, supportsOverlay } from './overlay-database.js';

const CODEQL_INSTALL =
  'install the CodeQL CLI bundle (https://github.com/github/codeql-action/releases) and put `codeql` on PATH';

export type { LanguageStatus } from './language-outcome.js';

const resolvedLanguagesSchema = z.record(z.string(), z.unknown());

function groupByLanguage(files: readonly ChangedFile[], only: readonly CodeqlLanguage[] | undefined) {
  const groups = new Map<CodeqlLanguage, ChangedFile[]>();
  for (const file of files) {
    const language = codeqlLanguageOf(file.path);
    if (language === null || (only && !only.includes(language))) continue;
    groups.set(language, [...(groups.get(language) ?? []), file]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => compareText(a, b)));
}

const PRODUCER = 'codeql';

type CodeqlOptions = StaticAnalysisOptions['codeql'];
/** What every language's analysis shares. */
interface CodeqlRun {
  input: ProducerInput;
  options: CodeqlOptions;
  extractors: ReadonlySet<string>;
  present: ReadonlyMap<CodeqlLanguage, ChangedFile[]>;
  deadline: number;
  cacheDir: string;
  memoryPath: string;
  sizes: Awaited<ReturnType<typeof sourceSizes>>;
  settings: string;
  /** The CLI's version when it said; overlays need a recent one, and telemetry records it. */
  cliVersion: string | null;
}

/** The extractors the installed CodeQL has, or why CodeQL cannot run at all. */
async function resolveExtractors(input: ProducerInput): Promise<Set<string> | ProducerOutcome> {
  const { ctx } = input;
  const options = ctx.options.codeql;
  const probe = { analyzer: PRODUCER, config: options, env: ctx.env, repoRoot: ctx.repoRoot };
  const missing = (known: boolean): ProducerOutcome => ({
    producer: PRODUCER,
    state: 'unavailable',
    reason: '`codeql` is not on PATH',
    install: CODEQL_INSTALL,
    docs: 'docs/validators/static-analysis.md#codeql',
    known,
    required: options.enabled === true,
  });
  if (await knownMissing(probe)) return missing(true);
  const resolved = await ctx.runProcess('codeql', resolveLanguagesArgs(), { cwd: ctx.repoRoot, timeoutMs: 60_000 });
  if (resolved.spawnError) return missing(!(await rememberMissing(probe)));
  if (resolved.exitCode !== 0) {
    return {
      producer: PRODUCER,
      state: 'failed',
      reason: `codeql resolve languages exited ${resolved.exitCode}: ${firstOutputLine(resolved.stderr)}`,
    };
  }
  try {
    return new Set(Object.keys(resolvedLanguagesSchema.parse(JSON.parse(resolved.stdout))));
  } catch {
    return {
      producer: PRODUCER,
      state: 'failed',
      reason: 'codeql resolve languages --format=json did not print a JSON object',
    };
  }
}

/** Why a language gets no database (no extractor, too large, nothing left to report on), or undefined to go on. */
function skipBeforeBuilding(run: CodeqlRun, language: CodeqlLanguage): LanguageOutcome | undefined {
  const { options } = run;
  const info = CODEQL_LANGUAGES[language];
  if (!run.extractors.has(info.extractor)) {
    return {
      status: 'failed',
      detail: `the installed CodeQL has no ${info.extractor} extractor`,
      failure: { state: 'failed', reason: `codeql: no ${info.extractor} extractor in this CodeQL installation` },
    };
  }
  const size = run.sizes instanceof Map ? (run.sizes.get(language) ?? 0) : 0;
  if (size > options.maxRepoSizeBytes) {
    return {
      status: 'skipped_too_large',
      detail: `over ${formatSize(options.maxRepoSizeBytes)} of ${language} source (codeql.maxRepoSizeBytes); raise it to analyze`,
    };
  }
  if ((run.present.get(language) ?? []).length === 0)
    return { status: 'analyzed', detail: `only deletions of ${language} files: nothing to report on` };
  return undefined;
}

/** Builds the language's database within `remainingMs`; answers its path, or how it failed. */
async function createDatabase(
  run: CodeqlRun,
  options: { language: CodeqlLanguage; remainingMs: number },
): Promise<string | LanguageOutcome> {
  const { ctx } = run.input;
  const { language, remainingMs } = options;
  ctx.progress(`codeql: creating the ${language} database`);
  const database = join(run.cacheDir, 'codeql', 'databases', language);
  await mkdir(join(run.cacheDir, 'codeql', 'databases'), { recursive: true, mode: 0o700 });
  const created = await ctx.runProcess(
    'codeql',
    databaseCreateArgs({ database, language, sourceRoot: ctx.repoRoot, threads: run.options.threads }),
    { cwd: ctx.repoRoot, timeoutMs: remainingMs, maxOutputBytes: 1024 * 1024 },
  );
  const failed = stepFailure(language, { step: 'database creation', command: 'database create' }, created);
  if (failed) return failed;
  return database;
}

/** Analyzes the database with alerts restricted to the changed lines (a diff-range pack) into a SARIF log. */
async function analyzeDatabase(
  run: CodeqlRun,
  options: { language: CodeqlLanguage; database: string; sourceRoot: string; fingerprint: string },
): Promise<LanguageOutcome> {
  const { ctx, scope } = run.input;
  const { language, database, fingerprint } = options;
  const withFiles = run.present.get(language) ?? [];
  const packDir = join(ctx.artifactsDir, 'codeql-packs', language);
  // The diff range names files where CodeQL read them: the repository, or an overlay's source tree.
  await writeDiffRangePack(packDir, diffRangeRows(withFiles, { repoRoot: options.sourceRoot, scope: scope.mode }));
  const output = join(ctx.artifactsDir, `codeql-${language}.sarif`);
  ctx.progress(`codeql: analyzing ${language}`);
  const analyzed = await ctx.runProcess(
    'codeql',
    databaseAnalyzeArgs({
      database,
      querySpec: querySpecFor(language, run.options.queries),
      output,
      language,
      threads: run.options.threads,
      packDir,
    }),
    { cwd: ctx.repoRoot, timeoutMs: Math.max(1, run.deadline - Date.now()), maxOutputBytes: 1024 * 1024 },
  );
  const failed = stepFailure(language, { step: 'analysis', command: 'database analyze' }, analyzed);
  if (failed) return failed;
  return { status: 'analyzed', detail: `${withFiles.length} changed file(s)`, analyzed: { output, fingerprint } };
}

/** One language: reuse an analysis that still stands, else skip, or build and analyze its database. */
async function analyzeLanguage(
  run: CodeqlRun,
  options: { language: CodeqlLanguage; files: ChangedFile[] },
): Promise<LanguageOutcome> {
  const { ctx } = run.input;
  const { language, files } = options;
  const fingerprint = await languageFingerprint({ changeSet: ctx.changeSet, files, settings: run.settings });
  const remembered = await recallLanguage(run.memoryPath, language);
  if (remembered?.fingerprint === fingerprint) {
    return {
      status: 'skipped_no_changes',
      detail: `no ${language} file changed since the analysis at ${remembered.at}; its ${remembered.issues.length} result(s) stand`,
      reused: remembered.issues,
    };
  }
  const skipped = skipBeforeBuilding(run, language);
  if (skipped) return skipped;
  const remainingMs = run.deadline - Date.now();
  if (remainingMs <= 0 || ctx.signal.aborted) {
    return {
      status: 'failed',
      detail: 'not started: codeql.timeout ran out',
      failure: {
        state: 'timed_out',
        reason: `codeql: ran out of time (codeql.timeout ${formatDuration(run.options.timeout)})`,
      },
    };
  }
  const built = await buildDatabase(run, { language, remainingMs });
  if ('status' in built) return built;
  const analyzed = await analyzeDatabase(run, { language, ...built, fingerprint });
  return built.overlay ? { ...analyzed, overlay: true } : analyzed;
}

/** An overlay on the cached base database where this CodeQL supports it for the language, else a full database. */
async function buildDatabase(
  run: CodeqlRun,
  options: { language: CodeqlLanguage; remainingMs: number },
): Promise<{ database: string; sourceRoot: string; overlay: boolean } | LanguageOutcome> {
  const { ctx } = run.input;
  const { language } = options;
  const database = join(run.cacheDir, 'codeql', 'databases', language);
  if (
    run.options.overlay &&
    run.cliVersion !== null &&
    ctx.changeSet.base.commit !== null &&
    supportsOverlay(language, run.cliVersion)
  ) {
    const overlay = await createOverlayDatabase({
      input: run.input,
      language,
      cliVersion: run.cliVersion,
      threads: run.options.threads,
      database,
      deadline: Date.now() + options.remainingMs,
    });
    return 'status' in overlay ? overlay : { ...overlay, overlay: true };
  }
  const full = await createDatabase(run, options);
  return typeof full === 'string' ? { database: full, sourceRoot: ctx.repoRoot, overlay: false } : full;
}

/** Gathers the languages' outcomes into the producer's, remembering each analyzed language's issues once read. */
function ranOutcome(
  run: Pick<CodeqlRun, 'memoryPath' | 'cliVersion'>,
  outcomes: readonly (LanguageOutcome & { language: CodeqlLanguage })[],
): ProducerOutcome {
  const { memoryPath } = run;
  const reused: SarifIssue[] = [];
  const logs: SarifLog[] = [];
  const pending = new Map<string, { language: CodeqlLanguage; fingerprint: string }>();
  let failure: Failure | undefined;
  for (const outcome of outcomes) {
    appendAll(reused, outcome.reused ?? []);
    // A time-out replaces an earlier failure; otherwise the first failure stands.
    if (outcome.failure)
      failure = outcome.failure.state === 'timed_out' ? outcome.failure : (failure ?? outcome.failure);
    if (!outcome.analyzed) continue;
    logs.push({ file: outcome.analyzed.output });
    pending.set(outcome.analyzed.output, { language: outcome.language, fingerprint: outcome.analyzed.fingerprint });
  }
  const languages = Object.fromEntries(outcomes.map(({ language, status, detail }) => [language, { status, detail }]));
  // A language skipped for size was not analyzed at all: its changed files are unexamined, never passed.
  const unexamined = outcomes
    .filter((outcome) => outcome.status === 'skipped_too_large')
    .map((outcome) => `codeql did not analyze ${outcome.language}: ${outcome.detail}`);
  return {
    producer: PRODUCER,
    state: 'ran',
    logs,
    reused,
    ...(failure ? { failure } : {}),
    ...(unexamined.length > 0 ? { unexamined } : {}),
    // The CLI's version and whether any language was analyzed on an overlay database, for telemetry.
    details: { languages, cliVersion: run.cliVersion, overlay: outcomes.some((outcome) => outcome.overlay === true) },
    note: outcomes.map(({ language, status }) => `${language} ${status.replace(/_/g, ' ')}`).join(', '),
    onIssues: async (log, issues) => {
      const entry = pending.get(log.file);
      if (!entry) return;
      await rememberLanguage(memoryPath, entry.language, {
        fingerprint: entry.fingerprint,
        at: new Date().toISOString(),
        issues: dedupeIssues(issues),
      });
    },
  };
}

/**
 * CodeQL, one language at a time: skip a language unchanged since its last analysis (its issues stand) or too large
 * to build a database for in time, else create the database, restrict alerts to the changed lines and analyze.
 */
export async function runCodeql(input: ProducerInput): Promise<ProducerOutcome> {
  const { ctx } = input;
  const options = ctx.options.codeql;
  if (options.enabled === false)
    return { producer: PRODUCER, state: 'not_applicable', reason: 'turned off (codeql.enabled: false)' };
  // Deleted files count for "did this language change" but cannot carry alerts.
  const changed = groupByLanguage(ctx.changeSet.files, options.languages);
  const present = groupByLanguage(input.files, options.languages);
  if (changed.size === 0)
    return { producer: PRODUCER, state: 'not_applicable', reason: 'no changed file in a CodeQL language' };
  const extractors = await resolveExtractors(input);
  if (!(extractors instanceof Set)) return extractors;

  const deadline = Date.now() + Math.min(options.timeout, ctx.budget.remainingMs());
  const cacheDir = ensureTollgateDir(ctx.repoRoot).cacheDir;
  const memoryPath = analysisMemoryPath(cacheDir);
  const sizes = await sourceSizes(ctx, [...changed.keys()], options.maxRepoSizeBytes);
  const settings = JSON.stringify({ queries: options.queries, scope: input.scope.mode });
  // Read even without overlays: telemetry records which CodeQL ran.
  const cliVersion = await readCliVersion(input);
  const run: CodeqlRun = {
    input,
    options,
    extractors,
    present,
    deadline,
    cacheDir,
    memoryPath,
    sizes,
    settings,
    cliVersion,
  };
  const outcomes: (LanguageOutcome & { language: CodeqlLanguage })[] = [];
  for (const [language, files] of changed)
    outcomes.push({ language, ...(await analyzeLanguage(run, { language, files })) });
  return ranOutcome(run, outcomes);
}
