import type { RunReport } from '../core/run/run-report.js';
import { renderGithub } from './github.js';
import { renderHtml } from './html/index.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';

interface ReportRenderer {
  render(report: RunReport): string;
  /** What the format is for, in `--format` help. */
  summary: string;
}

/**
 * Every format a run report renders to. Adding one is one renderer file and one entry here: `--format`, the
 * `output.format` config setting and their help texts are derived from this table.
 */
const reportRenderers = {
  markdown: { render: renderMarkdown, summary: 'for people and agents (default)' },
  json: { render: renderJson, summary: 'the full report as data' },
  sarif: { render: renderSarif, summary: 'SARIF 2.1.0, for code scanning' },
  github: { render: renderGithub, summary: 'GitHub Actions annotations (workflow commands)' },
  html: { render: renderHtml, summary: 'one self-contained page, e.g. a CI artifact' },
} satisfies Record<string, ReportRenderer>;

export type ReportFormat = keyof typeof reportRenderers;
export const REPORT_FORMATS = Object.keys(reportRenderers) as [ReportFormat, ...ReportFormat[]];

export function renderReport(report: RunReport, format: ReportFormat): string {
  return reportRenderers[format].render(report);
}

/** `markdown (for people and agents, the default), json (…)`: the formats for help texts. */
export function describeReportFormats(): string {
  return REPORT_FORMATS.map((format) => `${format} (${reportRenderers[format].summary})`).join(', ');
}

/** A format from a loaded config, which the schema already checked against `REPORT_FORMATS`. */
export function reportFormatOf(name: string): ReportFormat {
  if (!Object.hasOwn(reportRenderers, name)) throw new Error(`no report renderer named ${name}`);
  return name as ReportFormat;
}
