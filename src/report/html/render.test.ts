import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runReportWith } from '../../../test/support/run-report.js';
import type { RunSummary } from '../../core/events/replay.js';
import { makeFinding } from '../../core/finding.js';
import type { RunReport, ToolReport } from '../../core/run/run-report.js';
import { pageOfSummary, renderHtml, renderHtmlPage } from './index.js';
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

  test('`code` in a summary or a finding title is code on the page, not backticks', () => {
    const html = renderHtml(
      reportWith([
        {
          ...tool,
          summary: 'run `tollgate advisories check --all` to check <every> dependency',
          findings: [{ ...hostile, title: 'check `npm test` failed' }],
        },
      ]),
    );
    expect(html).toContain('<p>run <code>tollgate advisories check --all</code> to check &lt;every&gt; dependency</p>');
    expect(html).toContain('check <code>npm test</code> failed');
    expect(html).not.toContain('`');
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

  test('the summary: what blocks, the next step, and the validators and checks that passed', () => {
    const checks: ToolReport = {
      name: 'checks',
      title: 'Checks',
      status: 'passed',
      summary: '2 check(s) passed',
      durationMs: 10,
      findings: [],
      details: {
        checks: [
          { name: 'lint <fast>', state: 'passed' },
          { name: 'docs', state: 'not_applicable' },
        ],
      },
    };
    const html = renderHtml(reportWith([tool, checks]));
    const summary = html.slice(html.indexOf('<section class="summary"'), html.indexOf('<section class="filters"'));
    expect(summary).toContain(
      '<li><a href="#tool-code_review">code_review</a> <span class="status bad">FAILED</span>: 1 blocking finding</li>',
    );
    expect(summary).toContain('Fix the findings below, then run <code>tollgate run</code> again.');
    expect(summary).toContain(
      'Passed: <span class="name">checks</span>, <span class="name">checks: lint &lt;fast&gt;</span>.',
    );
    expect(html.indexOf('id="tool-code_review"')).toBeLessThan(html.indexOf('id="tool-checks"'));
  });

  test('a blocking finding carries its waive command; a waived one does not', () => {
    const waived = {
      ...hostile,
      id: 'feedbeef',
      waiver: { findingId: 'feedbeef', by: 'ana', reason: 'ok', at: 'now' },
    };
    const html = renderHtml(reportWith([{ ...tool, findings: [hostile, waived] }]));
    expect(html).toContain(`<code class="cmd">tollgate waive ${hostile.id} --reason &quot;…&quot;</code>`);
    expect(html).not.toContain('tollgate waive feedbeef');
    expect(html).toContain('<div class="fid">id <code>feedbeef</code></div>');
  });

  test('changed file names are escaped and stay on one line', () => {
    const files = [{ path: 'a<b>&c\nd\t"e".ts', status: 'added' }];
    const html = renderHtml(reportWith([tool], { files, changedFiles: 1 }));
    expect(html).toContain('<code>a&lt;b&gt;&amp;c\\nd\\t&quot;e&quot;.ts</code>');
    expect(html).toContain('<h2>Changed files (1)</h2>');
  });

  test('the page of a run without a stored report says so and still gives the summary', () => {
    const page = renderHtmlPage(
      pageOfSummary(
        'r1',
        {
          runId: 'r1',
          start: null,
          end: null,
          abort: null,
          state: 'interrupted',
          tools: [],
          hooks: [],
          permissions: [],
          waivers: [],
          unknownEvents: 0,
          problems: [],
          truncatedLastLine: false,
          firstAt: null,
          lastAt: null,
        } satisfies RunSummary,
        'no stored report',
      ),
    );
    expect(page).toContain('<li>no stored report</li>');
    expect(page).toContain('<section class="summary"');
  });
});
