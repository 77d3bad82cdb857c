import { escapeHtml, htmlDocument, pageStyle } from '../../report/html/index.js';
import type { JudgeAnswer } from './judge-answer.js';
import type { SlotSummary, ValidateAlertSummary } from './summary.js';
import type { CallUsage } from './usage.js';

export interface AlertPageInput {
  summary: ValidateAlertSummary;
  /** The judge's score and rationale per analysis, when the judge decided. */
  scores: JudgeAnswer['scores'] | null;
  /** The winning report (Markdown, already masked), shown as text. */
  finalReport: string | null;
}

/**
 * validate-alert's outcome as one self-contained page (`report.html` beside `final-report.md`): the verdict, each
 * competing analysis with its evals, challenge, skill compliance, judge score and usage, and the winning report.
 * Same shell as the run report: no script, no request anywhere, every value escaped.
 */
export function renderAlertPage(input: AlertPageInput): string {
  const { summary } = input;
  const facts: Array<[string, string]> = [
    ['Repository', summary.repository],
    ['Alert', `${summary.alertId} (${summary.source})`],
    ['Secret type', summary.secretType],
    ['Confidence', summary.confidence === null ? '—' : `${summary.confidence}/10 (${summary.confidenceLabel ?? ''})`],
    ['Risk', summary.riskLevel ?? '—'],
    ['Decided by', summary.decidedBy],
    ...(summary.verification
      ? ([
          [
            'Provider check',
            `${summary.verification.status}${summary.verification.provider ? ` (${summary.verification.provider})` : ''}${summary.verification.reason ? `: ${summary.verification.reason}` : ''}`,
          ],
        ] as Array<[string, string]>)
      : []),
    ['Key finding', summary.keyFinding ?? '—'],
  ];
  const notes = [
    ...(summary.contested ? [`Contested: ${summary.contested}`] : []),
    ...(summary.disagreement ?? []).map(
      (side) =>
        `Report ${side.report} (${side.agent}) said ${side.verdict}${side.confidence !== null ? `, confidence ${side.confidence}/10` : ''}; its challenge: ${side.challenge ?? 'none'}`,
    ),
    ...(summary.note ? [summary.note] : []),
    ...summary.notes,
  ];
  const verdictClass =
    summary.verdict === 'TRUE_POSITIVE' ? 'failed' : summary.verdict === 'FALSE_POSITIVE' ? 'passed' : 'interrupted';
  const main = `<main data-analyses="${summary.slots.length}">
<header>
<h1>Alert ${escapeHtml(summary.alertId)} in ${escapeHtml(summary.repository)} <span class="verdict ${verdictClass}">${escapeHtml(summary.verdict)}</span></h1>
<dl class="facts">${facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
${notes.length > 0 ? `<ul class="notes">${notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>` : ''}
</header>
<section><h2>Competing analyses</h2>${analysesTable(summary, input.scores)}</section>
${rationales(input.scores)}
<section><h2>Winning report</h2>${input.finalReport ? `<pre class="report">${escapeHtml(input.finalReport)}</pre>` : '<p>No analysis produced a report that could win.</p>'}</section>
</main>`;
  return htmlDocument({
    title: `tollgate validate-alert ${summary.repository}#${summary.alertId}`,
    style: pageStyle([], []),
    main,
  });
}

function analysesTable(summary: ValidateAlertSummary, scores: AlertPageInput['scores']): string {
  const scoreOf = new Map((scores ?? []).map((score) => [score.index, score.score]));
  const rows = summary.slots.map((slot) => {
    const winner = slot.index === summary.winner;
    return `<tr class="analysis${winner ? ' winner' : ''}" data-index="${slot.index}"><td class="num">${slot.index}${winner ? ' (winner)' : ''}</td><td>${escapeHtml(slot.agent)}</td><td>${escapeHtml(slot.status)}${slot.message ? `<br><small>${escapeHtml(slot.message)}</small>` : ''}</td><td>${escapeHtml(slot.verdict ?? '—')}</td><td class="num">${slot.confidence ?? '—'}</td><td>${evalsCell(slot)}</td><td>${escapeHtml(slot.challenge ?? '—')}</td><td class="num">${slot.compliance === null ? '—' : `${slot.compliance}%${slot.complianceBasis === 'self-reported' ? ' (self-reported)' : ''}`}</td><td class="num">${scoreOf.get(slot.index) ?? '—'}</td><td class="num">${usageCell(slot)}</td></tr>`;
  });
  return `<table class="overview"><thead><tr><th>#</th><th>Agent</th><th>Status</th><th>Verdict</th><th>Confidence</th><th>Evals</th><th>Challenge</th><th>Skills</th><th>Judge score</th><th>Usage</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function evalsCell(slot: SlotSummary): string {
  if (!slot.evals) return '—';
  const failed = slot.evals.failed.length > 0 ? `; failed: ${slot.evals.failed.join(', ')}` : '';
  return escapeHtml(`${slot.evals.passed ? 'passed' : 'FAILED'} (${slot.evals.score})${failed}`);
}

/** Tokens and cost, where the CLI reported them. */
function usageCell(slot: SlotSummary): string {
  return escapeHtml(usageText(slot.usage));
}

/** "1234 tokens, $0.0100", or "—" when the CLI reported neither. */
export function usageText(usage: Pick<CallUsage, 'inputTokens' | 'outputTokens' | 'costUsd'>): string {
  const { inputTokens, outputTokens, costUsd } = usage;
  const parts = [
    inputTokens !== undefined || outputTokens !== undefined
      ? `${(inputTokens ?? 0) + (outputTokens ?? 0)} tokens`
      : null,
    costUsd !== undefined ? `$${costUsd.toFixed(4)}` : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(', ') : '—';
}

function rationales(scores: AlertPageInput['scores']): string {
  if (!scores || scores.length === 0) return '';
  const items = scores.map(
    (score) => `<li><strong>Analysis ${score.index}: ${score.score}/10.</strong> ${escapeHtml(score.rationale)}</li>`,
  );
  return `<section><h2>The judge's reasons</h2><ul>${items.join('')}</ul></section>`;
}
