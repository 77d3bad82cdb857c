import { compareText } from '../../../core/text-order.js';
import { escapeHtml, htmlDocument, pageStyle } from '../../../report/html/index.js';
import { usageText } from '../report-html.js';
import type { MergedSweep } from './merge.js';
import type { SweepResult } from './sweep-result.js';

export const MERGE_FORMATS = ['markdown', 'json', 'html'] as const;
export type MergeFormat = (typeof MERGE_FORMATS)[number];

export function renderMerged(merged: MergedSweep, format: MergeFormat): string {
  if (format === 'json') return `${JSON.stringify(merged, null, 2)}\n`;
  if (format === 'html') return renderHtml(merged);
  return renderMarkdown(merged);
}

/** "TRUE_POSITIVE 12 · FALSE_POSITIVE 30 · INCONCLUSIVE 2". */
function totalsLine(merged: MergedSweep): string {
  const parts = Object.entries(merged.totals)
    .sort(([a], [b]) => compareText(a, b))
    .map(([verdict, count]) => `${verdict} ${count}`);
  return parts.length > 0 ? parts.join(' · ') : 'none decided';
}

function headline(merged: MergedSweep): string {
  const open = merged.errors.length + merged.unfinished.length;
  return `${merged.results.length} alert(s) decided from ${merged.sources.length} shard folder(s): ${totalsLine(merged)}${open > 0 ? `; ${open} not decided` : ''}. Usage: ${usageText(merged.usage)}.`;
}

function confidenceText(result: SweepResult): string {
  return result.confidence === null
    ? '—'
    : `${result.confidence}/10${result.confidenceLabel ? ` (${result.confidenceLabel})` : ''}`;
}

function winnerText(result: SweepResult): string {
  return result.winner ? `#${result.winner.index} ${result.winner.agent}` : '—';
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function renderMarkdown(merged: MergedSweep): string {
  const lines = ['## tollgate alert sweep', '', headline(merged), ''];
  if (merged.results.length > 0) {
    lines.push(
      '| Alert | Secret type | Verdict | Confidence | Winning analysis | Usage |',
      '|---|---|---|---|---|---|',
      ...merged.results.map(
        (r) =>
          `| ${cell(`${r.repo}#${r.number}`)} | ${cell(r.secretType)} | ${cell(r.verdict)} | ${cell(confidenceText(r))} | ${cell(winnerText(r))} | ${cell(usageText(r.usage))} |`,
      ),
    );
  }
  if (merged.errors.length > 0 || merged.unfinished.length > 0) {
    lines.push('', '### Not decided (rerun the shard to retry)', '');
    for (const e of merged.errors) lines.push(`- ${cell(`${e.repo}#${e.number}`)}: ${cell(e.message)}`);
    for (const u of merged.unfinished) lines.push(`- ${cell(`${u.repo}#${u.number}`)}: interrupted`);
  }
  return `${lines.join('\n')}\n`;
}

function renderHtml(merged: MergedSweep): string {
  const verdictClass = (verdict: string) =>
    verdict === 'TRUE_POSITIVE' ? 'failed' : verdict === 'FALSE_POSITIVE' ? 'passed' : 'interrupted';
  const rows = merged.results.map(
    (r) =>
      `<tr data-verdict="${escapeHtml(r.verdict)}"><td>${escapeHtml(`${r.repo}#${r.number}`)}</td><td>${escapeHtml(r.secretType)}</td><td><span class="verdict ${verdictClass(r.verdict)}">${escapeHtml(r.verdict)}</span></td><td class="num">${escapeHtml(confidenceText(r))}</td><td>${escapeHtml(winnerText(r))}</td><td class="num">${escapeHtml(usageText(r.usage))}</td></tr>`,
  );
  const open = [
    ...merged.errors.map((e) => `<li>${escapeHtml(`${e.repo}#${e.number}`)}: ${escapeHtml(e.message)}</li>`),
    ...merged.unfinished.map((u) => `<li>${escapeHtml(`${u.repo}#${u.number}`)}: interrupted</li>`),
  ];
  const totals = Object.entries(merged.totals)
    .map(([verdict, count]) => `<dt>${escapeHtml(verdict)}</dt><dd data-total="${escapeHtml(verdict)}">${count}</dd>`)
    .join('');
  const main = `<main data-decided="${merged.results.length}">
<header><h1>tollgate alert sweep</h1><p>${escapeHtml(headline(merged))}</p><dl class="facts">${totals}</dl></header>
<section><h2>Decided alerts</h2><table class="overview"><thead><tr><th>Alert</th><th>Secret type</th><th>Verdict</th><th>Confidence</th><th>Winning analysis</th><th>Usage</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>
${open.length > 0 ? `<section><h2>Not decided</h2><ul class="notes">${open.join('')}</ul></section>` : ''}
</main>`;
  return htmlDocument({ title: 'tollgate alert sweep', style: pageStyle([], []), main });
}
