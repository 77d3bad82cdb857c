import type { RunReport } from '../../core/run/run-report.js';
import { pageOfReport } from './page.js';
import { renderHtmlPage } from './render.js';

export { pageStyle } from './assets.js';
export { type HtmlPage, pageOfReport } from './page.js';
export { pageOfSummary } from './page-of-summary.js';
export { escapeHtml, htmlDocument, renderHtmlPage } from './render.js';

/** `--format html`: the run as one self-contained page. */
export function renderHtml(report: RunReport): string {
  return renderHtmlPage(pageOfReport(report));
}
