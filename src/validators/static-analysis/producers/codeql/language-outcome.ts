import { formatDuration } from '../../../../core/config/units.js';
import type { ProcessResult } from '../../../../core/process.js';
import type { SarifIssue } from '../../reader/read-sarif.js';
import { firstOutputLine } from '../producer.js';
import type { CodeqlLanguage } from './languages.js';

export type LanguageStatus = 'analyzed' | 'skipped_no_changes' | 'skipped_too_large' | 'failed';
export type Failure = { state: 'failed' | 'timed_out'; reason: string };

/** What one language came to. */
export interface LanguageOutcome {
  status: LanguageStatus;
  detail: string;
  failure?: Failure;
  /** Issues of an earlier analysis that still stands. */
  reused?: SarifIssue[];
  /** The SARIF log written, and the fingerprint to remember its issues under. */
  analyzed?: { output: string; fingerprint: string };
  /** The database was an overlay on the cached base database. */
  overlay?: boolean;
}

/** How a `codeql` step that timed out, was aborted or exited non-zero failed the language; null when it succeeded. */
export function stepFailure(
  language: CodeqlLanguage,
  names: { step: string; command: string },
  result: ProcessResult,
): LanguageOutcome | null {
  if (result.timedOut || result.aborted) {
    return {
      status: 'failed',
      detail: `${names.step} timed out after ${formatDuration(result.durationMs)}`,
      failure: { state: 'timed_out', reason: `codeql: ${language} ${names.step} ran out of time (codeql.timeout)` },
    };
  }
  if (result.exitCode === 0) return null;
  const reason = `${names.command} exited ${result.exitCode}: ${firstOutputLine(result.stderr, result.stdout)}`;
  return { status: 'failed', detail: reason, failure: { state: 'failed', reason: `codeql (${language}): ${reason}` } };
}
