import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runReportWith } from '../../../test/support/run-report.js';
import { makeFinding } from '../../core/finding.js';
import type { RunReport, ToolReport } from '../../core/run/run-report.js';
import { renderHtml } from './index.js';
import { escapeHtml } from './render.js';

const unescapeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

function reportWith(tools: ToolReport[], extra: Partial<RunReport> = {}): RunReport {
  return runReportWith(tools, { runId: 'r1', startedAt: '2026-11-25T10:00:00.000Z', verdict: 'failed', ...extra });
}

const hostile = makeFinding({
  validator: 'code_review',
  ruleId: 'x"><img src=x onerror=alert(1)>',
  severity: 'high',
  title: '</td></tr></table><script>alert(1)</script>',
  body: 'detail with <b>markup</b> & "quotes"',
  path: 'src/<a>.ts',
  line: 3,
});
const tool: ToolReport = {
  name: 'code_review',
  title: 'AI code review',
  status: 'failed',
  summary: 'summary <i>',
  durationMs: 1500,
  startedAt: '2026-11-25T10:00:00.300Z',
  findings: [hostile],
};

describe('--format html', () => {
  test('escapeHtml leaves no markup character and reads back unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(unescapeHtml(escaped)).toBe(text);
      }),
    );
  });

  test('a hostile finding stays text: one script element, ours', () => {
    const html = renderHtml(reportWith([tool]));
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>markup');
    expect(html).toContain('&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;');
  });

  test('the CSP allows exactly the inline style and script, by hash, and nothing from anywhere', () => {
    const html = renderHtml(reportWith([tool]));
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toBe(
      `default-src 'none'; style-src ${hash(style)}; script-src ${hash(script)}; img-src 'none'; base-uri 'none'; form-action 'none'`,
    );
    expect(html).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
  });

  test('counts, the timeline and the code context are in the page', () => {
    const html = renderHtml(
      reportWith([tool], {
        codeContext: { [hostile.id]: { startLine: 1, lines: ['one', 'two', 'three <x>', 'four'] } },
      }),
    );
    expect(html).toContain('<main data-findings="1" data-blocking="1">');
    expect(html).toContain('data-tool="code_review" data-findings="1"');
    expect(html).toMatch(/<rect class="bad" x="[\d.]+" y="4" width="[\d.]+" height="14">/);
    expect(html).toContain('<span class="ln hit">    3  three &lt;x&gt;</span>');
    expect(html).toContain('<span class="ln">    4  four</span>');
  });

  test('waived findings are marked and not counted as blocking', () => {
    const waived = { ...hostile, waiver: { findingId: hostile.id, by: 'ana', reason: 'false positive', at: 'now' } };
    const html = renderHtml(reportWith([{ ...tool, findings: [waived] }]));
    expect(html).toContain('<main data-findings="1" data-blocking="0">');
    expect(html).toContain('waived (ana: false positive)');
  });
});
