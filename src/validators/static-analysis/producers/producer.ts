import type { ChangedFile } from '../../../core/change-set/types.js';
import type { ToolContext } from '../../../core/pipeline/tool.js';
import type { StaticAnalysisOptions } from '../options.js';
import type { RelevanceScope, SarifIssue } from '../reader/read-sarif.js';

/** A SARIF log a producer wrote, to go through the one reader. */
export interface SarifLog {
  file: string;
  /** What `%SRCROOT%` means for this log; default the repository root. */
  sourceRoot?: string;
}

export interface ProducerInput {
  ctx: ToolContext<StaticAnalysisOptions, unknown>;
  scope: RelevanceScope;
  /** Changed files whose new version exists and is readable (no deletions, binaries or skipped files). */
  files: readonly ChangedFile[];
}

/** What one producer (CodeQL, Semgrep, ESLint, a configured analyzer) did. */
export type ProducerOutcome =
  | {
      producer: string;
      state: 'ran';
      logs: SarifLog[];
      /** Issues kept from an earlier analysis that still stands (CodeQL languages unchanged since then). */
      reused?: SarifIssue[];
      /** Reads a log's issues before they count (CodeQL remembers them per language). */
      onIssues?: (log: SarifLog, issues: SarifIssue[]) => Promise<void>;
      note?: string;
      /** Part of the work failed (one CodeQL language) while the rest produced logs. */
      failure?: { state: 'failed' | 'timed_out'; reason: string };
      /** Part of the change was not analyzed (a CodeQL language over its size cap): the result cannot be a pass. */
      unexamined?: string[];
      details?: Record<string, unknown>;
    }
  | { producer: string; state: 'not_applicable'; reason: string; details?: Record<string, unknown> }
  /**
   * Not installed; `install` says how to get it, in one line, and `docs` where to read more. `known`: an earlier run
   * found it missing just so and gave the advice already, so the result only says it is missing.
   */
  | {
      producer: string;
      state: 'unavailable';
      reason: string;
      install: string;
      required: boolean;
      docs?: string;
      known?: boolean;
    }
  | { producer: string; state: 'failed'; reason: string; details?: Record<string, unknown> }
  | { producer: string; state: 'timed_out'; reason: string; details?: Record<string, unknown> };

/** The first non-empty line of a child's stderr (or stdout), for a one-line reason. */
export function firstOutputLine(stderr: string, stdout = ''): string {
  const line = `${stderr}\n${stdout}`
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text !== '');
  if (!line) return 'no output';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
