import { className, escapeHtml, escapeName, escapeWithCode } from './escape.js';
import type { HtmlPage, HtmlSummary } from './page.js';

/** Changed files listed open; a longer list folds (the count is in the heading either way). */
const FILES_SHOWN_OPEN = 50;

/** The top of the page: what blocks the change and where, the next step, and what passed. */
export function summarySection(summary: HtmlSummary): string {
  const blocking =
    summary.blocking.length === 0
      ? '<p class="blocks none">Nothing blocks the change.</p>'
      : `<p class="blocks">Blocking the change:</p><ul class="blocks">${summary.blocking
          .map(
            (tool) =>
              `<li><a href="#tool-${className(tool.name)}">${escapeHtml(tool.name)}</a> <span class="status bad">${escapeHtml(tool.label)}</span>${tool.findings > 0 ? `: ${tool.findings} blocking finding${tool.findings === 1 ? '' : 's'}` : ''}</li>`,
          )
          .join('')}</ul>`;
  const passed =
    summary.passed.length === 0
      ? '<p class="passed">Nothing passed.</p>'
      : `<p class="passed">Passed: ${summary.passed.map((name) => `<span class="name">${escapeHtml(name)}</span>`).join(', ')}.</p>`;
  const notRun =
    summary.notRun.length === 0
      ? ''
      : `<p class="not-run">Neither blocked nor passed: ${summary.notRun.map((name) => `<span class="name">${escapeHtml(name)}</span>`).join(', ')}.</p>`;
  const waiving = summary.blocking.some((tool) => tool.findings > 0)
    ? '<p class="hint">Each finding below shows its id and the command that waives it. An agent may waive only the severities in <code>waivers.allow</code> (default low, medium); a person waives the others at a terminal with <code>--human</code>.</p>'
    : '';
  return `<section class="summary" id="summary"><h2>Summary</h2>${blocking}<p class="next"><strong>Next:</strong> ${escapeWithCode(summary.next)}</p>${waiving}${passed}${notRun}</section>`;
}

/** The change's files with their status; names escaped and on one line each. */
export function changedFilesSection(changed: HtmlPage['changedFiles']): string {
  if (!changed) return '';
  const items = changed.files
    .map(
      (file) =>
        `<li><span class="fstatus">${escapeHtml(file.status)}</span> <code>${escapeName(file.path)}</code></li>`,
    )
    .join('');
  const more = changed.total > changed.files.length ? `<p>… and ${changed.total - changed.files.length} more.</p>` : '';
  const list = `<ul class="files">${items}</ul>${more}`;
  const body =
    changed.files.length <= FILES_SHOWN_OPEN ? list : `<details><summary>show the list</summary>${list}</details>`;
  return `<section class="changed" id="changed-files"><h2>Changed files (${changed.total})</h2>${changed.total === 0 ? '<p>No file differs from the base.</p>' : body}</section>`;
}

/** A blocking finding's waive command, selected whole by one click and copied by its button. */
export function waiveLine(command: string): string {
  return `<div class="waive"><code class="cmd">${escapeHtml(command)}</code> <button type="button" class="copy" data-copy="${escapeHtml(command)}">Copy</button></div>`;
}
