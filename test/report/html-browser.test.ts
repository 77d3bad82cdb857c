/// <reference lib="dom" />
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderAlertPage } from '../../src/integrations/alerts/report-html.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * The HTML report in a real browser (Debian's chromium, which `.ci/run` installs): it opens without a console error
 * or a CSP violation, its counts equal the JSON report of the same tree, its filters work, and a canary secret and a
 * hostile finding message stay out of it as live content. Skipped, and said so, where no chromium is installed.
 */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => path !== undefined && path !== '' && existsSync(path),
);
const canary = fakeChecksumToken('ghp_', 'canary-html');

interface JsonReport {
  tools: Array<{ name: string; findings: Array<{ severity: string }> }>;
}

describe.skipIf(!CHROMIUM)('the HTML report in chromium', () => {
  let repo: TempRepo;
  let outDir: string;
  let browser: Browser;
  let json: JsonReport;

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'tollgate-html-'));
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': [
          'checks:',
          '  - name: "hostile <b>check</b>"',
          `    run: "echo '<script>window.pwned = 1</script>' ; echo token ${canary}; exit 1"`,
          '',
        ].join('\n'),
        'README.md': '# demo\n',
      },
    });
    await repo.write('src/config.ts', `export const token = "${canary}";\nexport const other = 1;\n`);
    const jsonRun = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    json = JSON.parse(jsonRun.stdout) as JsonReport;
    const htmlRun = await runCli(['run', '--format', 'html', '--output', join(outDir, 'run.html')], {
      cwd: repo.root,
      env: repo.env,
    });
    expect(htmlRun.exitCode, htmlRun.stderr).toBe(1);
    const log = await runCli(['log', '--format', 'html'], { cwd: repo.root, env: repo.env });
    expect(log.exitCode, log.stderr).toBe(0);
    writeFileSync(join(outDir, 'log.html'), log.stdout);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Root in a container has no user namespace for chromium's sandbox.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await repo?.cleanup();
    if (process.env.TOLLGATE_KEEP_SCREENSHOTS) process.stdout.write(`screenshots kept in ${outDir}\n`);
    else rmSync(outDir, { recursive: true, force: true });
  });

  async function open(file: string) {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warn') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) problems.push(`request to ${request.url()}`);
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, problems };
  }

  test('opens without console errors; its counts are the JSON report’s; no canary, no injected script', async () => {
    const file = join(outDir, 'run.html');
    const html = readFileSync(file, 'utf8');
    expect(html).not.toContain(canary);
    expect(html).not.toContain('<script>window.pwned');
    const { page, problems } = await open(file);
    await page.screenshot({ path: join(outDir, 'run.png') as `${string}.png`, fullPage: true });
    expect(statSync(join(outDir, 'run.png')).size).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();

    const total = json.tools.reduce((sum, tool) => sum + tool.findings.length, 0);
    expect(total).toBeGreaterThan(0);
    const dom = await page.evaluate(() => ({
      main: Number(document.querySelector('main')!.dataset.findings),
      rows: document.querySelectorAll('tr.finding').length,
      tools: Object.fromEntries(
        Array.from(document.querySelectorAll<HTMLElement>('section.tool')).map((section) => [
          section.dataset.tool,
          section.querySelectorAll('tr.finding').length,
        ]),
      ),
      shown: document.getElementById('shown')!.textContent,
    }));
    expect(dom.main).toBe(total);
    expect(dom.rows).toBe(total);
    expect(dom.tools).toEqual(Object.fromEntries(json.tools.map((tool) => [tool.name, tool.findings.length])));
    expect(dom.shown).toBe(`${total} of ${total} finding${total === 1 ? '' : 's'} shown`);

    // Filtering by validator hides exactly its rows.
    const secrets = json.tools.find((tool) => tool.name === 'secrets')!.findings.length;
    expect(secrets).toBeGreaterThan(0);
    await page.click('input[data-filter="v-secrets"]');
    expect(await page.$eval('#shown', (element) => element.textContent)).toBe(
      `${total - secrets} of ${total} finding${total === 1 ? '' : 's'} shown`,
    );
    await page.close();
  }, 60_000);

  test('the validate-alert page opens cleanly and keeps hostile text as text', async () => {
    const file = join(outDir, 'alert.html');
    const slot = (index: number, agent: string) => ({
      index,
      agent,
      workspace: `/w/${index}`,
      status: 'ok',
      continuations: 0,
      verdict: 'TRUE_POSITIVE',
      confidence: 8,
      evals: { passed: true, score: 0.9, failed: [] },
      challenge: 'CONFIRMED',
      compliance: 100,
      complianceBasis: 'observed' as const,
      usage: { inputTokens: 1000, outputTokens: 200, costUsd: 0.0123 },
    });
    writeFileSync(
      file,
      renderAlertPage({
        summary: {
          repository: 'octo/api',
          alertId: '7',
          source: 'github',
          secretType: 'github_personal_access_token',
          verdict: 'TRUE_POSITIVE',
          confidence: 8,
          confidenceLabel: 'High',
          riskLevel: 'High',
          keyFinding: '<img src=x onerror="window.pwned=1">',
          winner: 0,
          decidedBy: 'judge',
          notes: [],
          outputDir: '/out',
          finalReport: '/out/final-report.md',
          htmlReport: '/out/report.html',
          slots: [slot(0, 'claude'), slot(1, 'codex')],
        },
        scores: [
          { index: 0, score: 9, rationale: 'live check <script>window.pwned=1</script>' },
          { index: 1, score: 6, rationale: 'no evidence' },
        ],
        finalReport: '# Report\n\n<script>window.pwned = 1</script>',
      }),
    );
    const { page, problems } = await open(file);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.$$eval('tr.analysis', (rows) => rows.length)).toBe(2);
    await page.close();
  }, 60_000);

  test('tollgate log --format html draws the same page, and its copy buttons raise no error', async () => {
    expect(readFileSync(join(outDir, 'log.html'), 'utf8')).toBe(readFileSync(join(outDir, 'run.html'), 'utf8'));
    const { page, problems } = await open(join(outDir, 'log.html'));
    expect(await page.$eval('.summary .next', (element) => element.textContent)).toMatch(
      /^Next: Fix the findings below/,
    );
    const command = await page.$eval('.waive code.cmd', (element) => element.textContent);
    expect(command).toMatch(/^tollgate waive [0-9a-f]+ --reason "…"$/);
    await page.click('button.copy');
    expect(problems).toEqual([]);
    expect(await page.$eval('h1', (element) => element.textContent)).toMatch(/^tollgate run \S+ (PASSED|FAILED)/);
    expect(await page.$$eval('svg.timeline rect', (rects) => rects.length)).toBeGreaterThan(0);
    await page.close();
  }, 60_000);
});
