import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `run --format html` and `log --format html` of the same run: one page, drawn from the report the run stored. A
 * failing check whose failure line comes long before the end of its output, a passing check, a canary secret in the
 * check's output and in a changed file (a secrets finding), and a changed file named with `<`, `&` and a newline.
 */
const canary = fakeChecksumToken('ghp_', 'canary-html-report');
const CONFIG = [
  'checks:',
  '  - name: unit tests',
  '    run: node test.js',
  '  - name: lint',
  '    run: node -e "process.exit(0)"',
  'validation:',
  '  code_review: { enabled: false }',
  '  static_analysis: { enabled: false }',
  '  advisories: { enabled: false }',
  '',
].join('\n');
const TEST_JS = [
  "const { add } = require('./math.js');",
  "if (add(1, 2) !== 3) { console.log('not ok 3 - add is broken: expected 3, got ' + add(1, 2)); process.exitCode = 1; }",
  "for (let i = 4; i <= 300; i++) console.log('ok ' + i + ' - adds ' + i + ' and 0');",
  `console.log('using token ${canary}');`,
  "console.log('# tests 300, fail 1');",
  '',
].join('\n');
const ODD_NAME = 'notes <b>&amp\nsecond line.txt';

describe('the HTML report (built CLI, real repository)', () => {
  let repo: TempRepo;
  let runPage: string;
  let runId: string;
  const cli = (...args: string[]) => runCli(args, { cwd: repo.root, env: repo.env });

  beforeAll(async () => {
    repo = await createTempRepo({
      files: { 'tollgate.config.yaml': CONFIG, 'math.js': 'exports.add = (a, b) => a + b;\n', 'test.js': '' },
    });
    await repo.write('math.js', 'exports.add = (a, b) => a - b;\n');
    await repo.write('test.js', TEST_JS);
    await repo.write(ODD_NAME, 'hello\n');
    const run = await cli('run', '--format', 'html', '--output', 'out/a.html');
    expect(run.stderr).toContain('report written to out/a.html');
    expect(run.exitCode).toBe(1);
    runPage = readFileSync(join(repo.root, 'out/a.html'), 'utf8');
    runId = /<title>tollgate run ([^<]+)<\/title>/.exec(runPage)![1]!;
  }, 120_000);
  afterAll(() => repo.cleanup());

  test('log draws the same page as run, byte for byte, with or without the run id', async () => {
    for (const args of [['log', runId], ['log']]) {
      const log = await cli(...args, '--format', 'html', '--output', 'out/b.html');
      expect(log.exitCode, log.stderr).toBe(0);
      expect(readFileSync(join(repo.root, 'out/b.html'), 'utf8')).toBe(runPage);
    }
  });

  test('the summary says what blocks, the next step and what passed, before the details', () => {
    const summary = runPage.indexOf('<section class="summary"');
    expect(summary).toBeGreaterThan(0);
    expect(summary).toBeLessThan(runPage.indexOf('<section class="tool"'));
    const top = runPage.slice(summary, runPage.indexOf('</section>', summary));
    expect(top).toContain('Blocking the change:');
    expect(top).toMatch(
      /<a href="#tool-checks">checks<\/a> <span class="status bad">FAILED<\/span>: 1 blocking finding/,
    );
    expect(top).toMatch(/<a href="#tool-secrets">secrets<\/a>/);
    expect(top).toContain('<strong>Next:</strong> Fix the findings below, then run <code>tollgate run</code> again.');
    expect(top).toContain('<span class="name">checks: lint</span>');
  });

  test("a failed check's output shows its failure line first, then its tail", () => {
    const section = runPage.slice(runPage.indexOf('<section class="tool" id="tool-checks"'));
    const excerpt = /<pre class="excerpt">([\s\S]*?)<\/pre>/.exec(section)![1]!;
    const failure = excerpt.indexOf('not ok 3 - add is broken: expected 3, got -1');
    expect(failure).toBeGreaterThanOrEqual(0);
    expect(excerpt.lastIndexOf('line(s) omitted')).toBeGreaterThan(failure);
    expect(excerpt.indexOf('# tests 300, fail 1')).toBeGreaterThan(excerpt.lastIndexOf('line(s) omitted'));
  });

  test('each blocking finding shows its id and the waive command, copyable', () => {
    const ids = [...runPage.matchAll(/<tr class="finding" [^>]*data-id="([0-9a-f]+)"/g)].map((match) => match[1]!);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    for (const id of ids) {
      expect(runPage).toContain(`<div class="fid">id <code>${id}</code></div>`);
      const command = `tollgate waive ${id} --reason &quot;…&quot;`;
      expect(runPage).toContain(
        `<code class="cmd">${command}</code> <button type="button" class="copy" data-copy="${command}">`,
      );
    }
  });

  test('changed files are listed, a hostile name escaped on one line', () => {
    const files = runPage.slice(runPage.indexOf('<section class="changed"'));
    expect(files).toMatch(/<h2>Changed files \(3\)<\/h2>/);
    expect(files).toContain('<code>notes &lt;b&gt;&amp;amp\\nsecond line.txt</code>');
    expect(files).toContain('<code>math.js</code>');
    expect(runPage).not.toContain('<b>&amp');
  });

  test('the canary secret appears only masked, in the page and in the stored report', () => {
    const stored = readFileSync(join(repo.root, '.tollgate/runs', runId, 'report.json'), 'utf8');
    for (const text of [runPage, stored]) {
      expect(text).not.toContain(canary);
      expect(text).not.toContain(canary.slice(4, 24));
    }
    // The check printed it near the end of its output; the secrets validator found it in test.js.
    expect(runPage).toContain('using token ghp_…\n# tests 300, fail 1');
    expect(runPage).toContain('Found ghp_… (github-pat).');
    expect(runPage.match(/<script/g)).toHaveLength(1);
    expect(runPage).not.toMatch(/\b(?:src|href)="(?:https?:)?\/\//);
  });

  test('a run without a stored report (an older tollgate) still gets a page from its event log', async () => {
    const storedPath = join(repo.root, '.tollgate/runs', runId, 'report.json');
    const kept = readFileSync(storedPath);
    rmSync(storedPath);
    try {
      const log = await cli('log', runId, '--format', 'html');
      expect(log.exitCode, log.stderr).toBe(0);
      expect(log.stdout).toContain('This run has no stored report');
      expect(log.stdout).toContain('<section class="summary"');
      expect(log.stdout).toMatch(/tollgate waive [0-9a-f]+ --reason/);
      expect(log.stdout).not.toContain(canary);
    } finally {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(storedPath, kept);
    }
    expect(existsSync(storedPath)).toBe(true);
  });
});
