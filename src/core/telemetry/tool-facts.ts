import type { ToolReport } from '../run/run-report.js';
import type { CodeqlTelemetry, ReviewerTelemetry } from './records.js';

/**
 * What telemetry keeps of a validator's details: which agent CLIs reviewed (version, model) and which CodeQL ran
 * (version, overlay). Details are the validators' free-form JSON, so each value is checked, and only what cannot carry a
 * secret or a user's path is kept: version numbers alone, and model names that are not paths. Pure.
 */
export function toolFacts(tool: Pick<ToolReport, 'details'>): {
  reviewers?: ReviewerTelemetry[];
  codeql?: CodeqlTelemetry;
} {
  const reviewers = reviewersOf(tool.details?.reviewers);
  const codeql = codeqlOf(tool.details?.producers);
  return { ...(reviewers ? { reviewers } : {}), ...(codeql ? { codeql } : {}) };
}

function reviewersOf(value: unknown): ReviewerTelemetry[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const reviewers = value
    .filter(isRecord)
    .flatMap((entry): ReviewerTelemetry[] =>
      typeof entry.cli === 'string'
        ? [{ cli: entry.cli, cliVersion: versionNumber(entry.cliVersion), model: modelName(entry.model) }]
        : [],
    );
  return reviewers.length > 0 ? reviewers : undefined;
}

function codeqlOf(value: unknown): CodeqlTelemetry | undefined {
  if (!Array.isArray(value)) return undefined;
  const codeql = value.filter(isRecord).find((entry) => entry.producer === 'codeql' && entry.state === 'ran');
  if (!codeql || !isRecord(codeql.details)) return undefined;
  return { version: versionNumber(codeql.details.cliVersion), overlay: codeql.details.overlay === true };
}

const VERSION = /\d+(?:\.\d+)+(?:-[0-9A-Za-z.]+)?/;

/** The version number in a CLI's `--version` line (`2.0.14 (Claude Code)` → `2.0.14`); nothing else of the line. */
export function versionNumber(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return VERSION.exec(value)?.[0].slice(0, 40) ?? null;
}

/** A configured model name; one that looks like a file path (a local model) is masked. */
export function modelName(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (/^(?:[/~.]|[A-Za-z]:[\\/])|\\/.test(value)) return '<path>';
  return value.slice(0, 100);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
