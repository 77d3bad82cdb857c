import type { LineRange } from '../../core/change-set/types.js';
import { type Finding, makeFinding } from '../../core/finding.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { dedupeIssues, issuesToFindings } from '../static-analysis/issues-to-findings.js';
import { type RelevanceScope, readSarifFile } from '../static-analysis/reader/read-sarif.js';
import { parseDeclaredOutput } from './json-findings.js';

type Read = { ok: true; findings: Finding[]; outside: number } | { ok: false; problem: string };

const MAX_TITLE = 160;

/** The changed files a finding may be about: deletions have no lines to flag. */
function changedFiles(ctx: ToolContext<unknown, unknown>): Map<string, readonly LineRange[]> {
  return new Map(
    ctx.changeSet.files.filter((file) => file.status !== 'deleted').map((file) => [file.path, file.changedLines]),
  );
}

/** `format: json`: the findings in changed files (or about no file), each with a stable id anchored to its line's text. */
export async function findingsOfJson(name: string, stdout: string, ctx: ToolContext<unknown, unknown>): Promise<Read> {
  const parsed = parseDeclaredOutput(stdout);
  if (!parsed.ok) return parsed;
  const files = changedFiles(ctx);
  const findings: Finding[] = [];
  let outside = 0;
  for (const found of parsed.findings) {
    const path = found.file?.replace(/^\.\//, '');
    if (path !== undefined && !files.has(path)) {
      outside += 1;
      continue;
    }
    const lineText =
      path && found.line ? (await ctx.changeSet.readText(path))?.split('\n')[found.line - 1]?.trim() : undefined;
    const title = `${found.rule}: ${found.message.split('\n', 1)[0]!.trim()}`;
    findings.push(
      makeFinding({
        validator: name,
        ruleId: found.rule,
        severity: found.severity,
        title: title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title,
        body: found.message,
        ...(path ? { path } : {}),
        ...(found.line ? { line: found.line } : {}),
        ...(found.column ? { column: found.column } : {}),
        ...(lineText ? { anchor: lineText } : {}),
      }),
    );
  }
  return { ok: true, findings, outside };
}

/** `format: sarif`: read by the static analysis validator's SARIF reader, results in changed files kept. */
export async function findingsOfSarif(name: string, file: string, ctx: ToolContext<unknown, unknown>): Promise<Read> {
  const scope: RelevanceScope = { mode: 'changed_files', files: changedFiles(ctx) };
  const read = await readSarifFile(file, { producer: name, label: 'its stdout', repoRoot: ctx.repoRoot, scope });
  if (!read.ok) return { ok: false, problem: read.problem };
  const findings = await issuesToFindings(dedupeIssues(read.issues), (path) => ctx.changeSet.readText(path), name);
  return { ok: true, findings, outside: read.results - read.issues.length };
}
