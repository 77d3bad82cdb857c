import { renderScanGithub } from './render-github.js';
import { renderScanJson } from './render-json.js';
import { renderScanMarkdown } from './render-markdown.js';
import { renderScanSarif } from './render-sarif.js';
import { SCAN_FORMATS, type ScanFormat } from './scan-formats.js';
import type { SecretScanReport } from './scan-report.js';

export { SCAN_FORMATS, type ScanFormat };

const renderers: Record<ScanFormat, (report: SecretScanReport) => string> = {
  markdown: renderScanMarkdown,
  json: renderScanJson,
  sarif: renderScanSarif,
  github: renderScanGithub,
};

export function renderScanReport(report: SecretScanReport, format: ScanFormat): string {
  return renderers[format](report);
}

export type { SecretScanReport } from './scan-report.js';
