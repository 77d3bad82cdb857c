import { createHash } from 'node:crypto';
import { SEVERITIES } from '../../core/finding.js';
import { PAGE_SCRIPT, pageStyle } from './assets.js';
import { className, escapeHtml, escapeName, escapeWithCode } from './escape.js';
import type { HtmlFinding, HtmlPage, HtmlTool } from './page.js';
import { changedFilesSection, summarySection, waiveLine } from './render-summary.js';

export { escapeHtml };

/**
 * One self-contained HTML file: inline CSS and JS allowed by hash in a strict Content-Security-Policy, no request to
 * anywhere, readable offline and as a CI artifact. Every value from the run is escaped, so a finding's text stays text.
 */
export function renderHtmlPage(page: HtmlPage): string {
  const validators = page.tools.map((tool) => tool.name);
  const style = pageStyle(validators.map(className), SEVERITIES);
  const total = page.tools.reduce((sum, tool) => sum + tool.findings.length, 0);
  // Only the findings of validators that did not pass block (the summary counts them); the rest are listed, not blocking.
  const blocking = page.summary.blocking.reduce((sum, tool) => sum + tool.findings, 0);
  const waived = page.tools.reduce((sum, tool) => sum + tool.findings.filter((finding) => finding.waived).length, 0);
  const notBlocking = total - blocking - waived;
  return htmlDocument({
    title: page.title,
    style,
    script: PAGE_SCRIPT,
    main: `<main data-findings="${total}" data-blocking="${blocking}">
<header>
<h1>${escapeHtml(page.title)} <span class="verdict ${page.verdict}">${page.verdict.toUpperCase()}</span></h1>
<dl class="facts">${page.facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
<p class="counts">${plural(blocking, 'blocking finding')}, ${notBlocking > 0 ? `${notBlocking} not blocking, ` : ''}${waived} waived, in ${plural(page.tools.length, 'validator')}.</p>
${page.notes.length > 0 ? `<ul class="notes">${page.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>` : ''}
</header>
${summarySection(page.summary)}
${filters(validators)}
${failedFirst(page.tools).map(toolSection).join('\n')}
${changedFilesSection(page.changedFiles)}
${overview(page.tools)}
${timeline(page.tools)}
<p class="shown" id="shown" aria-live="polite"></p>
</main>`,
  });
}

/** The validators that fail the run first, each group in run order. */
function failedFirst(tools: readonly HtmlTool[]): HtmlTool[] {
  return [...tools.filter((tool) => !tool.passed), ...tools.filter((tool) => tool.passed)];
}

/** Green for a pass, amber for what does not block but was not a full pass (unavailable, skipped), red otherwise. */
function toneOf(tool: HtmlTool): 'ok' | 'warn' | 'bad' {
  if (!tool.passed) return 'bad';
  return tool.status === 'passed' ? 'ok' : 'warn';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * The page around a `<main>`: its inline CSS and JS (if any) are the only content the Content-Security-Policy allows,
 * by hash; nothing may be loaded from anywhere.
 */
export function htmlDocument(parts: { title: string; style: string; script?: string; main: string }): string {
  const csp = [
    "default-src 'none'",
    `style-src '${sha256(parts.style)}'`,
    parts.script === undefined ? "script-src 'none'" : `script-src '${sha256(parts.script)}'`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(parts.title)}</title>
<style>${parts.style}</style>
</head>
<body>
${parts.main}
${parts.script === undefined ? '' : `<script>${parts.script}</script>\n`}</body>
</html>
`;
}

function overview(tools: readonly HtmlTool[]): string {
  const rows = tools.map(
    (tool) =>
      `<tr><td><a href="#tool-${className(tool.name)}">${escapeHtml(tool.name)}</a></td><td class="status ${toneOf(tool)}">${escapeHtml(tool.label)}</td><td class="num">${tool.durationMs === null ? '' : `${(tool.durationMs / 1000).toFixed(1)} s`}</td><td class="num">${tool.findings.length}</td></tr>`,
  );
  return `<section><h2>Validators</h2><table class="overview"><thead><tr><th>Validator</th><th>Status</th><th>Duration</th><th>Findings</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

/** When each validator ran, as an SVG (attributes, not inline styles, so the CSP needs no exception). */
function timeline(tools: readonly HtmlTool[]): string {
  const timed = tools.filter((tool) => tool.startMs !== null && tool.durationMs !== null);
  if (timed.length === 0) return '';
  const end = Math.max(1, ...timed.map((tool) => tool.startMs! + tool.durationMs!));
  const rowHeight = 22;
  const bars = timed.map((tool, index) => {
    const x = (tool.startMs! / end) * 800;
    const width = Math.max(2, (tool.durationMs! / end) * 800);
    const y = index * rowHeight;
    return `<text x="0" y="${y + 15}">${escapeHtml(tool.name)}</text><rect class="${toneOf(tool)}" x="${190 + x}" y="${y + 4}" width="${width}" height="14"><title>${escapeHtml(`${tool.name}: ${(tool.startMs! / 1000).toFixed(1)} s to ${((tool.startMs! + tool.durationMs!) / 1000).toFixed(1)} s`)}</title></rect>`;
  });
  return `<section><h2>Timeline</h2><svg class="timeline" viewBox="0 0 1000 ${timed.length * rowHeight}" role="img" aria-label="When each validator ran">${bars.join('')}</svg></section>`;
}

function filters(validators: readonly string[]): string {
  const box = (kind: 'v' | 's', name: string) =>
    `<label><input type="checkbox" checked data-filter="${kind}-${className(name)}"> ${escapeHtml(name)}</label>`;
  return `<section class="filters"><h2>Filter</h2><fieldset><legend>Validators</legend>${validators.map((name) => box('v', name)).join('')}</fieldset><fieldset><legend>Severities</legend>${SEVERITIES.map((name) => box('s', name)).join('')}</fieldset></section>`;
}

function toolSection(tool: HtmlTool): string {
  const name = className(tool.name);
  const rows = tool.findings.map((finding) => findingRow(name, finding)).join('');
  const table =
    tool.findings.length === 0
      ? ''
      : `<table class="findings"><thead><tr><th>Severity</th><th>Where</th><th>Finding</th><th>Rule</th></tr></thead><tbody>${rows}</tbody></table>`;
  return `<section class="tool" id="tool-${name}" data-tool="${escapeHtml(tool.name)}" data-findings="${tool.findings.length}"><h2>${escapeHtml(tool.name)} <span class="status ${toneOf(tool)}">${escapeHtml(tool.label)}</span></h2><p>${escapeWithCode(tool.summary)}</p>${table}</section>`;
}

function findingRow(validator: string, finding: HtmlFinding): string {
  // The excerpt (failure lines, then the tail) shows at once; the whole body folds out below it when it is longer.
  const excerpt = finding.excerpt ?? finding.body;
  const whole =
    finding.body && excerpt !== finding.body
      ? `<details><summary>all ${finding.body.split('\n').length} lines</summary><pre>${escapeHtml(finding.body)}</pre></details>`
      : '';
  const body = excerpt ? `<pre class="excerpt">${escapeHtml(excerpt)}</pre>${whole}` : '';
  const code = finding.context ? codeBlock(finding.context) : '';
  const waived = finding.waived ? `<span class="waived">waived (${escapeHtml(finding.waived)})</span>` : '';
  const id = finding.id ? `<div class="fid">id <code>${escapeHtml(finding.id)}</code></div>` : '';
  const waive = finding.waive ? waiveLine(finding.waive) : '';
  return `<tr class="finding${finding.waived ? ' is-waived' : ''}" data-v="${validator}" data-s="${finding.severity}" data-id="${escapeHtml(finding.id)}"><td class="sev ${finding.severity}">${finding.severity}</td><td class="where">${escapeName(finding.location ?? '')}</td><td>${escapeWithCode(finding.title)}${waived}${id}${waive}${code}${body}</td><td class="rule">${escapeHtml(finding.ruleId ?? '')}</td></tr>`;
}

function codeBlock(context: NonNullable<HtmlFinding['context']>): string {
  const lines = context.lines.map((line, index) => {
    const number = context.startLine + index;
    const marked = number >= context.mark[0] && number <= context.mark[1];
    return `<span class="ln${marked ? ' hit' : ''}">${String(number).padStart(5)}  ${escapeHtml(line)}</span>`;
  });
  return `<pre class="code">${lines.join('\n')}</pre>`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
