import { relative } from 'node:path';
import pLimit from 'p-limit';
import { appendAll } from '../../core/append-all.js';
import type { LineRange } from '../../core/change-set/types.js';
import { atLeast, type Finding, mergeFindings } from '../../core/finding.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import { dedupeIssues, issuesToFindings } from './issues-to-findings.js';
import type { StaticAnalysisOptions } from './options.js';
import { runCodeql } from './producers/codeql/run-codeql.js';
import { runConfiguredAnalyzer } from './producers/configured-analyzer.js';
import { runEslint } from './producers/eslint.js';
import type { ProducerInput, ProducerOutcome } from './producers/producer.js';
import { runSemgrep } from './producers/semgrep.js';
import { type RelevanceScope, readSarifFile, type SarifIssue } from './reader/read-sarif.js';

type Context = ToolContext<StaticAnalysisOptions, unknown>;

interface ProducerReport {
  producer: string;
  state: ProducerOutcome['state'];
  detail: string;
  results?: number;
  /** Unavailable although config says `enabled: true`. */
  required?: boolean;
  details?: Record<string, unknown>;
}

function labelOf(repoRoot: string, file: string): string {
  const rel = relative(repoRoot, file);
  return rel.startsWith('..') ? file : rel;
}

/** Every producer that could apply: configured analyzers first (the project asked for them), then ESLint, Semgrep, CodeQL. */
function producers(ctx: Context, input: ProducerInput): (() => Promise<ProducerOutcome>)[] {
  return [
    ...ctx.options.analyzers.map((analyzer, index) => () => runConfiguredAnalyzer(analyzer, index, input)),
    () => runEslint(input),
    () => runSemgrep(input),
    () => runCodeql(input),
  ];
}

export async function runStaticAnalysis(ctx: Context): Promise<ToolResult> {
  const readable = new Set(ctx.changeSet.skipped.map((file) => file.path));
  const files = ctx.changeSet.files.filter(
    (file) => file.status !== 'deleted' && !file.binary && !readable.has(file.path),
  );
  if (ctx.changeSet.files.length === 0) return result('passed', 'no changed files to analyze');
  const scope: RelevanceScope = {
    mode: ctx.options.scope,
    files: new Map<string, readonly LineRange[]>(files.map((file) => [file.path, file.changedLines])),
  };
  const input: ProducerInput = { ctx, scope, files };
  const limit = pLimit(Math.max(1, ctx.concurrency));
  const outcomes = await Promise.all(producers(ctx, input).map((run) => limit(run)));

  const issues: SarifIssue[] = [];
  const problems: string[] = [];
  const unexamined: string[] = [];
  const reports: ProducerReport[] = [];
  for (const outcome of outcomes) {
    if (outcome.state !== 'ran') {
      const detail = outcome.state === 'unavailable' ? unavailableDetail(outcome) : outcome.reason;
      reports.push({
        producer: outcome.producer,
        state: outcome.state,
        detail,
        ...(outcome.state === 'unavailable' && outcome.required ? { required: true } : {}),
        ...('details' in outcome && outcome.details ? { details: outcome.details } : {}),
      });
      continue;
    }
    let kept = 0;
    for (const log of outcome.logs) {
      const read = await readSarifFile(log.file, {
        producer: outcome.producer,
        label: labelOf(ctx.repoRoot, log.file),
        repoRoot: ctx.repoRoot,
        ...(log.sourceRoot ? { sourceRoot: log.sourceRoot } : {}),
        scope,
      });
      if (!read.ok) {
        problems.push(`malformed SARIF from ${read.problem}`);
        continue;
      }
      await outcome.onIssues?.(log, read.issues);
      appendAll(issues, read.issues);
      kept += read.issues.length;
    }
    if (outcome.reused) {
      appendAll(issues, outcome.reused);
      kept += outcome.reused.length;
    }
    if (outcome.failure?.state === 'failed') problems.push(outcome.failure.reason);
    appendAll(unexamined, outcome.unexamined ?? []);
    const timedOut = outcome.failure?.state === 'timed_out';
    reports.push({
      producer: outcome.producer,
      state: timedOut ? 'timed_out' : 'ran',
      detail: timedOut ? outcome.failure!.reason : (outcome.note ?? `${kept} result(s) on the change`),
      results: kept,
      ...(outcome.details ? { details: outcome.details } : {}),
    });
  }
  const findings = mergeFindings(await issuesToFindings(dedupeIssues(issues), (path) => ctx.changeSet.readText(path)));
  return summarize({ ctx, reports, problems, unexamined, findings });
}

/** A missing analyzer in one line: the install advice when it is news, else where to read it. */
function unavailableDetail(outcome: Extract<ProducerOutcome, { state: 'unavailable' }>): string {
  const docs = outcome.docs ? ` (${outcome.docs})` : '';
  return outcome.known
    ? `${outcome.reason}${docs || `; ${outcome.install}`}`
    : `${outcome.reason}; ${outcome.install}${docs}`;
}

function summarize(options: {
  ctx: Context;
  reports: ProducerReport[];
  problems: string[];
  /** Parts of the change no analyzer examined although one applies. */
  unexamined: string[];
  findings: Finding[];
}): ToolResult {
  const { ctx, reports, problems, unexamined, findings } = options;
  const failOn = ctx.options.failOn;
  const blocking = findings.filter((finding) => atLeast(finding.severity, failOn));
  const ran = reports.filter((report) => report.state === 'ran' || report.state === 'timed_out');
  const unavailable = reports.filter((report) => report.state === 'unavailable');
  const failed = reports.filter((report) => report.state === 'failed');
  const timedOut = reports.filter((report) => report.state === 'timed_out');
  const details = { producers: reports, failOn, scope: ctx.options.scope };
  const ranNames = ran.map((report) => report.producer).join(', ');
  const problemText = [...problems, ...failed.map((report) => `${report.producer}: ${report.detail}`)];
  const missing = unavailable.map((report) => `${report.producer} (${report.detail})`).join('; ');

  if (blocking.length > 0) {
    const extra = problemText.length > 0 ? `; also: ${problemText.join('; ')}` : '';
    return result(
      'failed',
      `${blocking.length} result(s) at ${failOn} or above on the change from ${ranNames}; fix them and run tollgate again${extra}`,
      findings,
      details,
    );
  }
  if (problemText.length > 0) {
    return result('error', `${problemText.join('; ')}`, findings, details);
  }
  if (timedOut.length > 0) {
    return result(
      'timeout',
      `${timedOut.map((report) => report.detail).join('; ')}; do not rerun: raise the timeout or narrow the analysis`,
      findings,
      details,
    );
  }
  if (unexamined.length > 0) {
    return result(
      'incomplete',
      `${unexamined.join('; ')}; the change is not validated until it is analyzed`,
      findings,
      details,
    );
  }
  const required = unavailable.filter((report) => report.required);
  if (required.length > 0 || (ran.length === 0 && unavailable.length > 0)) {
    const list = (required.length > 0 ? required : unavailable).map((report) => `${report.producer}: ${report.detail}`);
    const lead = required.length > 0 ? 'a required analyzer is not installed' : 'no analyzer could run';
    return result('tool_unavailable', `${lead}: ${list.join('; ')}`, findings, details);
  }
  if (ran.length === 0) {
    return result(
      'passed',
      'no analyzer applies to the changed files (configure `static_analysis.analyzers` to add one)',
      findings,
      details,
    );
  }
  const below = findings.length > 0 ? ` (${findings.length} below ${failOn})` : '';
  const skippedNote = missing ? `; not installed: ${missing}` : '';
  return result(
    'passed',
    `no result at ${failOn} or above on the change from ${ranNames}${below}${skippedNote}`,
    findings,
    details,
  );
}
