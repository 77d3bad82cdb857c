#!/usr/bin/env node
/**
 * Refreshes the screenshot of the HTML report in the docs: runs the gate on the demo's sample change with
 * `--format html`, opens the page in headless Chromium, and saves docs/images/html-report.png.
 *
 *   npm run build && node scripts/screenshot-report.mjs [--dark]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';
import { makeDemoRepo } from './demo-repo.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);
if (!chromium) {
  console.error('screenshot-report: no Chromium found; install it (apt-get install chromium) or set CHROMIUM_PATH');
  process.exit(2);
}
const dark = process.argv.includes('--dark');
const { sandbox, repo, env } = makeDemoRepo();
try {
  const page = join(sandbox, 'report.html');
  const run = spawnSync(
    process.execPath,
    [join(root, 'bin/tollgate.cjs'), 'run', '--format', 'html', '--output', page],
    { cwd: repo, env, encoding: 'utf8' },
  );
  if (run.status !== 1) throw new Error(`tollgate run exited ${run.status}: ${run.stderr.slice(0, 400)}`);
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 1200, height: 900, deviceScaleFactor: 1 });
    await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: dark ? 'dark' : 'light' }]);
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
    const out = join(root, 'docs/images', dark ? 'html-report-dark.png' : 'html-report.png');
    mkdirSync(dirname(out), { recursive: true });
    await tab.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
} finally {
  rmSync(sandbox, { recursive: true, force: true });
}
