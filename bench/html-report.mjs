// The HTML report at scale: a run with 10,000 findings must render to one file under 5 MB in under 1 s, and open in
// Chromium in under 2 s. Printed as ratios to baselines measured in the same run: rendering vs JSON.stringify of
// the same report, opening vs an empty page.
// Run after `npm run build`: node bench/html-report.mjs
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { exitWithUsageIfAsked, median, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);
// After the usage check: `--help` needs no build.
const { renderHtml } = await import('../dist/report/html/index.js');

const FINDINGS = 10_000;
const severities = ['critical', 'high', 'medium', 'low', 'info'];
const validators = ['static_analysis', 'code_review', 'secrets', 'advisories'];
const tools = validators.map((name, toolIndex) => ({
  name,
  title: name,
  status: 'failed',
  summary: `${name} found problems`,
  durationMs: 1000 + toolIndex * 300,
  startedAt: new Date(Date.UTC(2026, 10, 25, 10, 0, toolIndex)).toISOString(),
  findings: Array.from({ length: FINDINGS / validators.length }, (_, index) => ({
    id: `${toolIndex}${index.toString(16).padStart(15, '0')}`,
    validator: name,
    ruleId: `${name}/rule-${index % 40}`,
    severity: severities[index % severities.length],
    title: `Finding ${index}: a value from user input reaches a sensitive sink <unescaped & "quoted">`,
    body: index % 4 === 0 ? `Line one of the detail for ${index}\nline two` : undefined,
    path: `src/module-${index % 200}/file-${index % 37}.ts`,
    line: (index % 500) + 1,
    sources: [name],
  })),
}));
const report = {
  tool: 'tollgate',
  version: '0.1.0',
  runId: '20261125T100000Z-bench1',
  startedAt: '2026-11-25T10:00:00.000Z',
  durationMs: 5000,
  verdict: 'failed',
  repoRoot: '/repo',
  base: { ref: 'main', commit: 'a'.repeat(40), source: 'default-branch' },
  fingerprint: 'f'.repeat(64),
  changedFiles: 200,
  ignored: [],
  skippedFiles: [],
  partial: false,
  tools,
  maxOutputLines: 40,
};

const renderTimes = [];
const jsonTimes = [];
let html = '';
for (let round = 0; round < 7; round++) {
  let started = performance.now();
  html = renderHtml(report);
  renderTimes.push(performance.now() - started);
  started = performance.now();
  JSON.stringify(report, null, 2);
  jsonTimes.push(performance.now() - started);
}
const bytes = Buffer.byteLength(html);
const renderMs = median(renderTimes);

const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-html-'));
const file = join(dir, 'report.html');
const empty = join(dir, 'empty.html');
writeFileSync(file, html);
writeFileSync(empty, '<!doctype html><title>empty</title>');
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);
let openLine = "opening: no chromium here (install Debian's chromium to measure it)";
let openMs = null;
if (chromium) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const time = async (target) => {
    const page = await browser.newPage();
    const started = performance.now();
    await page.goto(pathToFileURL(target).href, { waitUntil: 'load' });
    const ms = performance.now() - started;
    await page.close();
    return ms;
  };
  await time(empty);
  const opens = [];
  const floors = [];
  for (let round = 0; round < 5; round++) {
    floors.push(await time(empty));
    opens.push(await time(file));
  }
  await browser.close();
  openMs = median(opens);
  openLine = `opens in Chromium in ${openMs.toFixed(0)} ms (target < 2000 ms ${openMs < 2000 ? 'met' : 'MISSED'}; an empty page ${median(floors).toFixed(0)} ms)`;
}
rmSync(dir, { recursive: true, force: true });
printResult({
  name: 'html-report',
  line: `HTML report of ${FINDINGS} findings: ${(bytes / 1e6).toFixed(2)} MB (target < 5 MB ${bytes < 5e6 ? 'met' : 'MISSED'}), rendered in ${renderMs.toFixed(0)} ms (target < 1000 ms ${renderMs < 1000 ? 'met' : 'MISSED'}; ${(renderMs / median(jsonTimes)).toFixed(2)}x JSON.stringify of the same report); ${openLine}`,
  values: { bytes, renderMs, jsonMs: median(jsonTimes), openMs },
});
