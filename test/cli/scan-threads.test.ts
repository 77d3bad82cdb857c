import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken, fakeHumanPassword, wrongChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `tollgate scan` on several threads reports exactly what it reports on one (the threads take files from one queue,
 * and the merged outcome is sorted), and its cap (`--max-threads`, `secrets.maxThreads`) takes whole numbers from 1
 * to 16, refusing anything else in one line that names the flag or field. Through the built CLI.
 */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const filler = 'const value = "ordinary line of generated data";\n'.repeat(2_000);

/** About 2 MB in 20 files, each with findings, an inline allow and a rejected candidate; sizes differ by file. */
function corpus(): Record<string, string> {
  // The config's cap is overridden by TOLLGATE_SCAN_THREADS below, and by --max-threads in the last run.
  const files: Record<string, string> = {
    'README.md': '# demo\n',
    'tollgate.config.yaml': 'secrets:\n  maxThreads: 1\n',
  };
  for (let i = 0; i < 20; i++) {
    files[`src/part-${String(i).padStart(2, '0')}.js`] = [
      filler.repeat(1 + (i % 3)),
      `const token = "${fakeChecksumToken('ghp_', `threads-${i}`)}";`,
      `const allowed = "${fakeChecksumToken('ghp_', `threads-allowed-${i}`)}"; // tollgate:allow demo value`,
      `const wrong = "${wrongChecksumToken('ghp_', `threads-wrong-${i}`)}";`,
      `export const db = { password: "${fakeHumanPassword(`threads-${i}`)}" };`,
      '',
    ].join('\n');
  }
  return files;
}

const scan = (args: string[], threads?: string) =>
  runCli(['scan', '--all', ...args], {
    cwd: repo!.root,
    env: { ...repo!.env, ...(threads ? { TOLLGATE_SCAN_THREADS: threads } : {}) },
  });

describe('tollgate scan on one thread and on several', () => {
  test('the same report, byte for byte, whatever the thread count or cap', async () => {
    repo = await createTempRepo({ files: corpus() });
    const sarif = ['--format', 'sarif'];
    const [one, three] = [await scan(sarif, '1'), await scan(sarif, '3')];
    expect(one.exitCode).toBe(1);
    expect(one.stdout.match(/"ruleId": "secrets\/github-pat"/g)).toHaveLength(20);
    expect(three.stdout).toBe(one.stdout);
    expect(three.exitCode).toBe(1);

    // Every list the report holds (findings, allows, rejected candidates), in the same order; only the time differs.
    const listed = ['--report-allowed', '--format', 'markdown'];
    const [single, several] = [await scan(listed, '1'), await scan(listed, '3')];
    const untimed = (text: string) => text.replace(/ in \d+ ms\./, ' in (time) ms.');
    expect(single.stdout).toContain('Recognised but not reported (20):');
    expect(untimed(several.stdout)).toBe(untimed(single.stdout));

    // The cap from config, overridden by the flag: still the same report.
    const capped = await scan([...sarif, '--max-threads', '2']);
    expect(capped.stderr).toBe('');
    expect(capped.stdout).toBe(one.stdout);
  }, 120_000);

  test('scan DIR (workers started while the folder is listed): the same JSON on 1 and 2 threads', async () => {
    repo = await createTempRepo({ files: corpus() });
    const dir = (threads: string) =>
      runCli(['scan', 'src', '--format', 'json'], {
        cwd: repo!.root,
        env: { ...repo!.env, TOLLGATE_SCAN_THREADS: threads },
      });
    const [one, two] = [await dir('1'), await dir('2')];
    const untimed = (text: string) => text.replace(/"durationMs": \d+/, '"durationMs": 0');
    expect(JSON.parse(one.stdout).findings).toHaveLength(40);
    expect(untimed(two.stdout)).toBe(untimed(one.stdout));
  }, 60_000);

  test('custom rules, an imported gitleaks config and imported suppressions: the workers report what one thread does', async () => {
    // The workers build their scanner from the main thread's rules and suppressions, sent as data (no config read).
    const config = [
      'secrets:',
      '  encryptedKeys: ignore',
      '  gitleaksConfig: .gitleaks.toml',
      '  rules:',
      '    - id: acme-key',
      '      pattern: "\\\\bacme_[A-Za-z0-9]{24}\\\\b"',
      '      keywords: [acme_]',
      '      caseInsensitive: true',
      '',
    ].join('\n');
    const gitleaks = [
      '[[rules]]',
      'id = "zeta-token"',
      "regex = '''(?i)zeta_(?P<secret>[0-9a-f]{20})'''",
      'secretGroup = 1',
      'keywords = ["zeta_"]',
      '[allowlist]',
      "regexes = ['''^0{20}$''']",
      "stopwords = ['cafecafecafecafecafe']",
      '',
    ].join('\n');
    const files: Record<string, string> = {
      'tollgate.config.yaml': config,
      '.gitleaks.toml': gitleaks,
      '.gitleaksignore': 'src/part-03.js:gitleaks-zeta-token:2003\n',
      '.secretlintrc.json': JSON.stringify({
        rules: [{ id: 'r', options: { allows: ['/^acme_Allowed/', 'FEEDFEED'] } }],
      }),
    };
    for (let i = 0; i < 12; i++) {
      const n = String(i).padStart(2, '0');
      files[`src/part-${n}.js`] = [
        filler.repeat(1 + (i % 3)),
        `const acme = "ACME_x${n}Yz9Qw7Er5Ty3Ui1Op8As6";`,
        `const zeta = "zeta_${n}9a8b7c6d5e4f3a2b1c0d";`,
        `const allowed = "acme_Allowed${n}Qw7Er5Ty3Ui1Op8";`,
        `const literal = "acme_FEEDFEED${n}Er5Ty3Ui1Op8As";`,
        'const zero = "zeta_00000000000000000000";',
        'const stop = "zeta_cafecafecafecafecafe";',
        '',
      ].join('\n');
    }
    repo = await createTempRepo({ files });
    const listed = ['--report-allowed', '--format', 'json'];
    const [one, three] = [await scan(listed, '1'), await scan(listed, '3')];
    expect(one.stderr).toBe('');
    const untimed = (text: string) => text.replace(/"durationMs": \d+/, '"durationMs": 0');
    expect(untimed(three.stdout)).toBe(untimed(one.stdout));
    const report = JSON.parse(one.stdout) as {
      findings: Array<{ ruleId: string }>;
      allowed: Array<{ kind: string; reason?: string; source?: string }>;
    };
    const count = (rule: string) => report.findings.filter((finding) => finding.ruleId.endsWith(rule)).length;
    expect(count('acme-key')).toBe(12);
    // One zeta token is cleared by the .gitleaksignore entry; the allowlist's regex and stopword clear the others.
    expect(count('gitleaks-zeta-token')).toBe(11);
    const imported = report.allowed.filter((entry) => entry.kind === 'imported');
    expect(imported.filter((entry) => entry.reason === 'secretlint allows')).toHaveLength(24);
    expect(imported.filter((entry) => entry.source === '.gitleaksignore:1')).toHaveLength(1);
  }, 120_000);

  test('a worker loads its CommonJS bundle: no ES module loader, no promise, readline or crypto modules', async () => {
    // Started as an ES module, each worker compiled them all from source under the scan's V8 flags (docs/benchmarks.md,
    // session 31): the facades of `node:fs` and `node:crypto` read every lazy export. `node:crypto` is loaded at a
    // worker's first finding, and these files hold none.
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`src/plain-${i}.js`] = filler.repeat(1 + (i % 3));
    repo = await createTempRepo({ files });
    const preload = join(repo.home, 'worker-modules.cjs');
    const log = join(repo.home, 'worker-modules.json');
    writeFileSync(
      preload,
      `const threads = require('node:worker_threads');
if (!threads.isMainThread) {
  const port = threads.parentPort; const post = port.postMessage.bind(port);
  port.postMessage = (message, ...rest) => {
    require('node:fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(process.moduleLoadList));
    return post(message, ...rest);
  };
}
`,
    );
    const result = await runCli(['scan', '--all', '--format', 'json'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_SCAN_THREADS: '2', NODE_OPTIONS: `--require ${preload}` },
    });
    expect(result.exitCode).toBe(0);
    const loaded = JSON.parse(readFileSync(log, 'utf8')) as string[];
    for (const module of ['esm/loader', 'internal/fs/promises', 'internal/readline/interface', 'crypto']) {
      expect(loaded.filter((name) => name.includes(module))).toEqual([]);
    }
  });

  test('a path that is not there: one-line usage error, and the workers started for the listing do not hold the process', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
    const result = await runCli(['scan', 'missing-dir'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_SCAN_THREADS: '3' },
      timeoutMs: 30_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('tollgate: missing-dir: no such file or directory');
  }, 40_000);
});

describe('the thread cap', () => {
  test.each([['0'], ['1.5'], ['two']])('--max-threads %s is refused in one line (exit 2)', async (value) => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
    const result = await scan(['--max-threads', value]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(
      `tollgate: --max-threads: expected a whole number from 1 to 16; got ${JSON.stringify(value)}`,
    );
  });

  test.each([
    ['64', 'expected at most 16, got 64'],
    ['0', 'expected at least 1, got 0'],
  ])('secrets.maxThreads: %s is a config error naming the field and its bound (exit 2)', async (value, message) => {
    const config = `secrets:\n  maxThreads: ${value}\n`;
    repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': config } });
    const result = await scan([]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(`tollgate: tollgate.config.yaml:2:15 secrets.maxThreads: ${message}`);
  });

  test('a config error after workers started (they start before the config): the error, exit 2, no thread holds the process', async () => {
    const config = 'secrets:\n  maxThreads: 64\n';
    repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': config } });
    const result = await runCli(['scan', '--all'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_SCAN_THREADS: '3' },
      timeoutMs: 30_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe(
      'tollgate: tollgate.config.yaml:2:15 secrets.maxThreads: expected at most 16, got 64',
    );
  }, 40_000);

  test('--help documents the flag with an example', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
    const help = await runCli(['scan', '--help'], { cwd: repo.root, env: repo.env });
    expect(help.stdout).toContain('--max-threads <n>');
    expect(help.stdout).toContain('$ tollgate scan --all --max-threads 2');
  });
});
