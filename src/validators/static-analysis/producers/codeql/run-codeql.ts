import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ChangedFile } from '../../../../core/change-set/types.js';
import { formatDuration, formatSize } from '../../../../core/config/duration.js';
import { ensureTollgateDir } from '../../../../core/state/tollgate-dir.js';
import { dedupeIssues } from '../../issues-to-findings.js';
import type { SarifIssue } from '../../reader/read-sarif.js';
import { firstOutputLine, type ProducerInput, type ProducerOutcome, type SarifLog } from '../producer.js';
import { analysisMemoryPath, recallLanguage, rememberLanguage } from './analysis-memory.js';
import { databaseAnalyzeArgs, databaseCreateArgs, resolveLanguagesArgs } from './codeql-argv.js';
import { diffRangeRows, writeDiffRangePack } from './diff-range-pack.js';
import { languageFingerprint } from './language-fingerprint.js';
import { sourceSizes } from './language-size.js';
import { CODEQL_LANGUAGES, type CodeqlLanguage, codeqlLanguageOf, querySpecFor } from './languages.js';

export const CODEQL_INSTALL =
  'install the CodeQL CLI bundle (https://github.com/github/codeql-action/releases) and put `codeql` on PATH';

export type LanguageStatus = 'analyzed' | 'skipped_no_changes' | 'skipped_too_large' | 'failed';

export interface LanguageReport {
  language: CodeqlLanguage;
  status: LanguageStatus;
  detail: string;
}

const resolvedLanguagesSchema = z.record(z.string(), z.unknown());

function groupByLanguage(files: readonly ChangedFile[], only: readonly CodeqlLanguage[] | undefined) {
  const groups = new Map<CodeqlLanguage, ChangedFile[]>();
  for (const file of files) {
    const language = codeqlLanguageOf(file.path);
    if (language === null || (only && !only.includes(language))) continue;
    groups.set(language, [...(groups.get(language) ?? []), file]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * CodeQL, one language at a time: skip a language unchanged since its last analysis (its issues stand) or too large
 * to build a database for in time, else create the database, restrict alerts to the changed lines and analyze.
 */
export async function runCodeql(input: ProducerInput): Promise<ProducerOutcome> {
  const { ctx } = input;
  const options = ctx.options.codeql;
  const producer = 'codeql';
  if (options.enabled === false)
    return { producer, state: 'not_applicable', reason: 'turned off (codeql.enabled: false)' };
  // Deleted files count for "did this language change" but cannot carry alerts.
  const changed = groupByLanguage(ctx.changeSet.files, options.languages);
  const present = groupByLanguage(input.files, options.languages);
  if (changed.size === 0) return { producer, state: 'not_applicable', reason: 'no changed file in a CodeQL language' };

  const resolved = await ctx.runProcess('codeql', resolveLanguagesArgs(), { cwd: ctx.repoRoot, timeoutMs: 60_000 });
  if (resolved.spawnError) {
    return {
      producer,
      state: 'unavailable',
      reason: '`codeql` is not on PATH',
      install: CODEQL_INSTALL,
      required: options.enabled === true,
    };
  }
  if (resolved.exitCode !== 0) {
    return {
      producer,
      state: 'failed',
      reason: `codeql resolve languages exited ${resolved.exitCode}: ${firstOutputLine(resolved.stderr)}`,
    };
  }
  let extractors: Set<string>;
  try {
    extractors = new Set(Object.keys(resolvedLanguagesSchema.parse(JSON.parse(resolved.stdout))));
  } catch {
    return { producer, state: 'failed', reason: 'codeql resolve languages --format=json did not print a JSON object' };
  }

  const deadline = Date.now() + Math.min(options.timeout, ctx.budget.remainingMs());
  const cacheDir = ensureTollgateDir(ctx.repoRoot).cacheDir;
  const memoryPath = analysisMemoryPath(cacheDir);
  const sizes = await sourceSizes(ctx, [...changed.keys()], options.maxRepoSizeBytes);
  const settings = JSON.stringify({ queries: options.queries, scope: input.scope.mode });
  const reports: LanguageReport[] = [];
  const reused: SarifIssue[] = [];
  const logs: SarifLog[] = [];
  const pending = new Map<string, { language: CodeqlLanguage; fingerprint: string }>();
  let failure: { state: 'failed' | 'timed_out'; reason: string } | undefined;

  for (const [language, files] of changed) {
    const report = (status: LanguageStatus, detail: string) => reports.push({ language, status, detail });
    const fingerprint = await languageFingerprint({ changeSet: ctx.changeSet, files, settings });
    const remembered = await recallLanguage(memoryPath, language);
    if (remembered?.fingerprint === fingerprint) {
      reused.push(...remembered.issues);
      report(
        'skipped_no_changes',
        `no ${language} file changed since the analysis at ${remembered.at}; its ${remembered.issues.length} result(s) stand`,
      );
      continue;
    }
    const info = CODEQL_LANGUAGES[language];
    if (!extractors.has(info.extractor)) {
      report('failed', `the installed CodeQL has no ${info.extractor} extractor`);
      failure ??= { state: 'failed', reason: `codeql: no ${info.extractor} extractor in this CodeQL installation` };
      continue;
    }
    const size = sizes instanceof Map ? (sizes.get(language) ?? 0) : 0;
    if (size > options.maxRepoSizeBytes) {
      report(
        'skipped_too_large',
        `over ${formatSize(options.maxRepoSizeBytes)} of ${language} source (codeql.maxRepoSizeBytes); raise it to analyze`,
      );
      continue;
    }
    const withFiles = present.get(language) ?? [];
    if (withFiles.length === 0) {
      report('analyzed', `only deletions of ${language} files: nothing to report on`);
      continue;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0 || ctx.signal.aborted) {
      report('failed', 'not started: codeql.timeout ran out');
      failure = {
        state: 'timed_out',
        reason: `codeql: ran out of time (codeql.timeout ${formatDuration(options.timeout)})`,
      };
      continue;
    }
    ctx.progress(`codeql: creating the ${language} database`);
    const database = join(cacheDir, 'codeql', 'databases', language);
    await mkdir(join(cacheDir, 'codeql', 'databases'), { recursive: true, mode: 0o700 });
    const created = await ctx.runProcess(
      'codeql',
      databaseCreateArgs({ database, language, sourceRoot: ctx.repoRoot, threads: options.threads }),
      { cwd: ctx.repoRoot, timeoutMs: remaining, maxOutputBytes: 1024 * 1024 },
    );
    if (created.timedOut || created.aborted) {
      report('failed', `database creation timed out after ${formatDuration(created.durationMs)}`);
      failure = {
        state: 'timed_out',
        reason: `codeql: ${language} database creation ran out of time (codeql.timeout)`,
      };
      continue;
    }
    if (created.exitCode !== 0) {
      const reason = `database create exited ${created.exitCode}: ${firstOutputLine(created.stderr, created.stdout)}`;
      report('failed', reason);
      failure ??= { state: 'failed', reason: `codeql (${language}): ${reason}` };
      continue;
    }

    const packDir = join(ctx.artifactsDir, 'codeql-packs', language);
    await writeDiffRangePack(packDir, diffRangeRows(withFiles, { repoRoot: ctx.repoRoot, scope: input.scope.mode }));
    const output = join(ctx.artifactsDir, `codeql-${language}.sarif`);
    ctx.progress(`codeql: analyzing ${language}`);
    const analyzed = await ctx.runProcess(
      'codeql',
      databaseAnalyzeArgs({
        database,
        querySpec: querySpecFor(language, options.queries),
        output,
        language,
        threads: options.threads,
        packDir,
      }),
      { cwd: ctx.repoRoot, timeoutMs: Math.max(1, deadline - Date.now()), maxOutputBytes: 1024 * 1024 },
    );
    if (analyzed.timedOut || analyzed.aborted) {
      report('failed', `analysis timed out after ${formatDuration(analyzed.durationMs)}`);
      failure = { state: 'timed_out', reason: `codeql: ${language} analysis ran out of time (codeql.timeout)` };
      continue;
    }
    if (analyzed.exitCode !== 0) {
      const reason = `database analyze exited ${analyzed.exitCode}: ${firstOutputLine(analyzed.stderr, analyzed.stdout)}`;
      report('failed', reason);
      failure ??= { state: 'failed', reason: `codeql (${language}): ${reason}` };
      continue;
    }
    report('analyzed', `${withFiles.length} changed file(s)`);
    logs.push({ file: output });
    pending.set(output, { language, fingerprint });
  }

  const languages = Object.fromEntries(reports.map(({ language, status, detail }) => [language, { status, detail }]));
  return {
    producer,
    state: 'ran',
    logs,
    reused,
    ...(failure ? { failure } : {}),
    details: { languages },
    note: reports.map(({ language, status }) => `${language} ${status.replace(/_/g, ' ')}`).join(', '),
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
