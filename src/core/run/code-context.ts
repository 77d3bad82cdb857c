import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { loadRedactor } from '../pipeline/redact-result.js';
import type { CodeContext, RunReport } from './run-report.js';

/** Lines shown before and after a finding's own. */
const AROUND = 2;
const MAX_LINES = 12;
const MAX_LINE_LENGTH = 300;
/** Larger files are not read for context (a minified bundle's "line" can be megabytes). */
const MAX_FILE_BYTES = 2_000_000;
/** Findings given context: the stored report keeps it, so it stays small whatever the number of findings. */
const MAX_CONTEXTS = 500;

/**
 * The report with a few lines of code around each finding that has a file and a line, read from the working tree
 * and masked like every output. Secret findings get none: their line is the secret, and a project's own secret rules
 * may find what the generic masking would not.
 */
export async function withCodeContext(report: RunReport): Promise<RunReport> {
  const redact = await loadRedactor();
  const files = new Map<string, Promise<string[] | null>>();
  const linesOf = (path: string) => {
    let lines = files.get(path);
    if (!lines) {
      lines = readLines(report.repoRoot, path);
      files.set(path, lines);
    }
    return lines;
  };
  const codeContext: Record<string, CodeContext> = {};
  for (const tool of report.tools) {
    for (const finding of tool.findings) {
      if (Object.keys(codeContext).length >= MAX_CONTEXTS) break;
      if (tool.name === 'secrets' || !finding.path || !finding.line) continue;
      const lines = await linesOf(finding.path);
      if (!lines || finding.line > lines.length) continue;
      const startLine = Math.max(1, finding.line - AROUND);
      const endLine = Math.min(
        lines.length,
        Math.max(finding.line, finding.endLine ?? 0) + AROUND,
        startLine + MAX_LINES - 1,
      );
      codeContext[finding.id] = {
        startLine,
        lines: lines.slice(startLine - 1, endLine).map((line) => redact(line.slice(0, MAX_LINE_LENGTH))),
      };
    }
  }
  return { ...report, codeContext };
}

async function readLines(repoRoot: string, path: string): Promise<string[] | null> {
  const absolute = resolve(repoRoot, path);
  // Only files inside the repository: a finding's path comes from a tool's output.
  const inside = relative(repoRoot, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) return null;
  try {
    const buffer = await readFile(absolute);
    if (buffer.length > MAX_FILE_BYTES || buffer.includes(0)) return null;
    return buffer.toString('utf8').split(/\r?\n/);
  } catch {
    return null;
  }
}
