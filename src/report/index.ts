import type { RunReport } from '../core/run/run-report.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';

export const REPORT_FORMATS = ['markdown', 'json', 'sarif'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const renderers: Record<ReportFormat, (report: RunReport) => string> = {
  markdown: renderMarkdown,
  json: renderJson,
  sarif: renderSarif,
};

export function renderReport(report: RunReport, format: ReportFormat): string {
  return renderers[format](report);
}
