import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { helpFileOf, setupFakeAgents } from '../fakes/fake-agents.js';
import { startFakeGithubRest } from '../fakes/github-rest/server.js';
import { buildReport, claudeResult } from '../support/build-report.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';

/**
 * Runs action.yml's steps the way the runner does: `uses:` steps are recorded, not run; each `run:` step goes to bash
 * with its `env:` after the `${{ }}` expressions it uses are filled in, and the runner's files and variables set. The
 * install step is replaced by the package this test suite already built (npm test builds first).
 */
const root = join(import.meta.dirname, '../..');
const action = parseYaml(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: {
    steps: Array<{
      id?: string;
      name?: string;
      if?: string;
      uses?: string;
      run?: string;
      env?: Record<string, string>;
      with?: Record<string, unknown>;
    }>;
  };
};
const canary = fakeChecksumToken('ghp_', 'action-canary');
const token = 'ghs_fakeRunnerToken0123456789abcdefABCDEF';

interface Comment {
  id: number;
  body: string;
}
let server: Server;
let apiUrl = '';
const comments: Comment[] = [];
const requests: string[] = [];
const runnerDirs: string[] = [];

beforeAll(async () => {
  // One unrelated comment per page, so finding the sticky one has to follow the Link header.
  comments.push({ id: 1, body: 'LGTM' });
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    requests.push(`${req.method} ${req.url} ${req.headers.authorization === `Bearer ${token}` ? 'auth' : 'NO-AUTH'}`);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/repos/acme/shop/issues/7/comments') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const last = Math.max(1, comments.length);
      if (page < last) res.setHeader('link', `<${apiUrl}${url.pathname}?per_page=1&page=${page + 1}>; rel="next"`);
      res.end(JSON.stringify(comments.slice(page - 1, page)));
    } else if (req.method === 'POST' && url.pathname === '/repos/acme/shop/issues/7/comments') {
      const created = { id: 100 + comments.length, body: JSON.parse(body).body };
      comments.push(created);
      res.statusCode = 201;
      res.end(JSON.stringify(created));
    } else if (req.method === 'PATCH' && /^\/repos\/acme\/shop\/issues\/comments\/\d+$/.test(url.pathname)) {
      const comment = comments.find((c) => c.id === Number(url.pathname.split('/').pop()));
      if (comment) comment.body = JSON.parse(body).body;
      res.end(JSON.stringify(comment ?? {}));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await Promise.all(runnerDirs.map((dir) => removeDir(dir)));
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

/** The few expressions action.yml uses; anything else is a test failure, not a silent blank. */
function value(expression: string, inputs: Record<string, string>, outputs: Record<string, string>): string {
  const input = /^inputs\.([a-z-]+)$/.exec(expression);
  // A default may itself be an expression (`${{ github.token }}`), which the runner fills in too.
  if (input) return inputs[input[1]!] ?? evaluate(action.inputs[input[1]!]?.default ?? '', inputs, outputs);
  const output = /^steps\.gate\.outputs\.([a-z-]+)$/.exec(expression);
  if (output) return outputs[output[1]!] ?? '';
  if (expression === 'github.token') return token;
  const literal = /^'(.*)'$/.exec(expression);
  if (literal) return literal[1]!;
  throw new Error(`action.yml uses an expression the harness does not know: ${expression}`);
}

function evaluate(template: string, inputs: Record<string, string>, outputs: Record<string, string> = {}): string {
  return template.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => value(expression, inputs, outputs));
}

/** A step's `if:`: `always()` and `a == b` / `a != b` joined by `&&`; without `always()`, only after success. */
function runs(
  condition: string | undefined,
  failed: boolean,
  inputs: Record<string, string>,
  outputs: Record<string, string>,
): boolean {
  if (!condition) return !failed;
  const parts = condition
    .replace(/^\$\{\{\s*|\s*\}\}$/g, '')
    .split('&&')
    .map((part) => part.trim());
  if (failed && !parts.includes('always()')) return false;
  return parts.every((part) => {
    if (part === 'always()') return true;
    const compare = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(part);
    if (!compare) throw new Error(`action.yml uses a condition the harness does not know: ${part}`);
    const equal = value(compare[1]!, inputs, outputs) === value(compare[3]!, inputs, outputs);
    return compare[2] === '==' ? equal : !equal;
  });
}

async function runAction(repo: TempRepo, inputs: Record<string, string>, event: string, extra: NodeJS.ProcessEnv = {}) {
  const work = await tempDir('tollgate-runner-');
  runnerDirs.push(work);
  const files = {
    output: join(work, 'output'),
    summary: join(work, 'summary'),
    env: join(work, 'env'),
    path: join(work, 'path'),
  };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const runner = {
    ...repo.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: repo.root,
    GITHUB_ACTION_PATH: root,
    GITHUB_EVENT_PATH: event,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_API_URL: apiUrl,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    GITHUB_REPOSITORY: 'acme/shop',
    RUNNER_TEMP: work,
    ...extra,
  };
  const uses: Array<{ uses: string; with: Record<string, string> }> = [];
  let stdout = '';
  let stderr = '';
  let exitCode: number | null = 0;
  for (const step of action.runs.steps) {
    const outputs = parseOutputs(readFileSync(files.output, 'utf8'));
    if (!runs(step.if, exitCode !== 0, inputs, outputs)) continue;
    if (step.uses) {
      const resolved = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([k, v]) => [k, evaluate(String(v), inputs, outputs)]),
      );
      uses.push({ uses: step.uses, with: resolved });
      continue;
    }
    if (step.name === 'Install tollgate') {
      expect(step.run).toContain('npm ci');
      expect(step.run).toContain('npm run build');
      continue;
    }
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(v, inputs)]));
    const result = await runProcess('bash', ['-e', '-c', evaluate(step.run ?? '', inputs)], {
      cwd: repo.root,
      env: { ...runner, ...env },
      timeoutMs: 120_000,
    });
    stdout += result.stdout;
    stderr += result.stderr;
    exitCode = result.exitCode;
  }
  const outputs = parseOutputs(readFileSync(files.output, 'utf8'));
  return { exitCode, stdout, stderr, outputs, summary: readFileSync(files.summary, 'utf8'), uses };
}

/** The runner's reading of GITHUB_OUTPUT: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('=')) {
      const [name, ...rest] = lines[i]!.split('=');
      outputs[name!] = rest.join('=');
    }
  }
  return outputs;
}

describe('the GitHub Action, run step by step as the runner runs it', () => {
  let repo: TempRepo;
  let event: string;
  beforeAll(async () => {
    repo = await createTempRepo({
      // A config the workflow names (input `config`) is policy: the base commit's copy applies.
      files: {
        'README.md': '# shop\n',
        'ci/tollgate.yaml': 'checks:\n  - name: always fails\n    run: node -e "process.exit(3)"\n',
      },
    });
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', '-q', '-b', 'agent/payments');
    await repo.write('src/pay.js', `export const token = '${canary}';\n`);
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'payments client');
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    event = join(repo.home, 'event.json');
    const payload = readFileSync(join(root, 'test/fixtures/github-action/pull_request.json'), 'utf8');
    writeFileSync(event, payload.replace('BASE_SHA', base).replace('HEAD_SHA', head));
  }, 60_000);
  afterAll(() => repo.cleanup());

  test('a failing PR: outputs, summary, annotations, SARIF, one sticky comment created then edited; no canary anywhere', async () => {
    const first = await runAction(repo, { comment: 'true', sarif: 'true' }, event);
    expect(first.exitCode, `${first.stderr}\n${first.stdout}`).toBe(1);
    expect(first.outputs).toMatchObject({ verdict: 'failed', findings: '1' });
    expect(first.outputs['report-path']).toMatch(/report\.json$/);
    expect(JSON.parse(readFileSync(first.outputs['sarif-path']!, 'utf8')).version).toBe('2.1.0');
    expect(first.summary).toContain('secrets');
    expect(first.stdout).toMatch(/^::error file=src\/pay\.js,line=1/m);
    expect(first.uses.map((u) => u.uses)).toEqual(['actions/setup-node@v4', 'github/codeql-action/upload-sarif@v3']);
    expect(first.uses[1]!.with).toEqual({ sarif_file: first.outputs['sarif-path'], category: 'tollgate' });
    expect(comments.filter((c) => c.body.includes('tollgate:sticky-comment'))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);

    const second = await runAction(repo, { comment: 'true' }, event);
    expect(second.exitCode).toBe(1);
    expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
    expect(comments.filter((c) => c.body.includes('tollgate:sticky-comment'))).toHaveLength(1);
    expect(requests.filter((r) => !r.endsWith(' auth'))).toEqual([]);
    expect(second.outputs['sarif-path']).toBe('');
    expect(second.uses.map((u) => u.uses)).toEqual(['actions/setup-node@v4']);

    for (const run of [first, second]) {
      const everything = [
        run.stdout,
        run.stderr,
        run.summary,
        JSON.stringify(run.outputs),
        ...comments.map((c) => c.body),
      ];
      for (const text of everything) {
        expect(text).not.toContain(canary);
        expect(text).not.toContain(token);
      }
    }
  }, 120_000);

  test("no ancestor of a PR's check holds the token in its environment (/proc/<pid>/environ)", async () => {
    const out = join(repo.home, 'ancestors.json');
    // Walks up from the check's parent to init, noting each ancestor and whether its initial environment has a token.
    const walker = [
      "const fs = require('node:fs');",
      'const found = [];',
      'let pid = process.ppid;',
      'while (pid > 1) {',
      "  let environ = '';",
      "  try { environ = fs.readFileSync('/proc/' + pid + '/environ', 'latin1'); } catch {}",
      "  found.push({ pid, token: environ.split('\\0').some((v) => /^(TOLLGATE_TOKEN|GITHUB_TOKEN|GH_TOKEN|INPUT_TOKEN)=./.test(v) || v.includes(process.argv[3])) });",
      "  const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');",
      "  pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);",
      '}',
      'fs.writeFileSync(process.argv[2], JSON.stringify(found));',
    ].join('\n');
    // The config the workflow names is policy: it must be in the base commit to apply.
    const pr = await createTempRepo({
      files: {
        'README.md': '# shop\n',
        'ci/ancestors.cjs': walker,
        'ci/ancestors.yaml': `checks:\n  - name: ancestors\n    run: node ci/ancestors.cjs ${out} ${token.slice(0, 16)}\n`,
      },
    });
    try {
      const base = (await pr.git('rev-parse', 'HEAD')).trim();
      await pr.git('checkout', '-q', '-b', 'agent/change');
      await pr.write('src/a.js', 'export const a = 1;\n');
      await pr.commit('a change');
      const head = (await pr.git('rev-parse', 'HEAD')).trim();
      const prEvent = join(pr.home, 'event.json');
      const payload = readFileSync(join(root, 'test/fixtures/github-action/pull_request.json'), 'utf8');
      writeFileSync(prEvent, payload.replace('BASE_SHA', base).replace('HEAD_SHA', head));
      const run = await runAction(pr, { 'fail-on': 'never', config: 'ci/ancestors.yaml', comment: 'true' }, prEvent);
      expect(run.exitCode, run.stderr).toBe(0);
      const ancestors = JSON.parse(readFileSync(out, 'utf8')) as Array<{ pid: number; token: boolean }>;
      expect(ancestors.length).toBeGreaterThan(0);
      expect(ancestors.filter((ancestor) => ancestor.token)).toEqual([]);
    } finally {
      await pr.cleanup();
    }
  }, 60_000);

  test('fail-on never reports without failing the step; config points the gate at another file', async () => {
    const run = await runAction(repo, { 'fail-on': 'never', config: 'ci/tollgate.yaml' }, event);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.outputs.verdict).toBe('failed');
    expect(run.summary).toContain('always fails');
  }, 60_000);

  test('a bad input is one line naming it, exit 2', async () => {
    const bad = await runAction(repo, { comment: 'yes please' }, event);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^tollgate: comment: expected true or false, got "yes please"$/m);
  }, 60_000);

  test('policy from the base: a PR that ignores, waives or switches off the check of its own secret still fails', async () => {
    const pr = await createTempRepo({
      files: { 'README.md': '# shop\n', 'tollgate.config.yaml': 'validation:\n  advisories: { enabled: false }\n' },
    });
    try {
      const base = (await pr.git('rev-parse', 'HEAD')).trim();
      await pr.git('checkout', '-q', '-b', 'agent/keys');
      await pr.write('config/dev.env', `GITHUB_TOKEN=${canary}\n`);
      await pr.write('.gitleaksignore', 'config/dev.env:github-pat:1\n');
      await pr.commit('dev config, ignored');
      const ignored = await runAction(pr, { base }, '');
      expect(ignored.exitCode, ignored.stderr).toBe(1);
      expect(ignored.summary).toContain('.gitleaksignore');
      const scanIgnored = await runAction(pr, { command: 'scan', base }, '');
      expect(scanIgnored.exitCode, scanIgnored.stderr).toBe(1);
      expect(scanIgnored.outputs).toMatchObject({ verdict: 'failed', findings: '1' });

      const report = JSON.parse(readFileSync(ignored.outputs['report-path']!, 'utf8'));
      const secretId = report.tools.find((tool: { name: string }) => tool.name === 'secrets').findings[0].id;
      await pr.write(
        'tollgate.waivers.yaml',
        `waivers:\n  - finding: ${secretId}\n    reason: fixture\n    by: agent\n    at: 2026-11-26T10:00:00Z\n`,
      );
      await pr.write(
        'tollgate.config.yaml',
        'validation:\n  advisories: { enabled: false }\n  secrets: { enabled: false }\n',
      );
      await pr.commit('waive it and switch secret scanning off');
      const relaxed = await runAction(pr, { base }, '');
      expect(relaxed.exitCode, relaxed.stderr).toBe(1);
      expect(relaxed.outputs.verdict).toBe('failed');
      const tools = JSON.parse(readFileSync(relaxed.outputs['report-path']!, 'utf8')).tools as Array<{
        name: string;
        status: string;
        findings: Array<{ path?: string; waiver?: unknown }>;
      }>;
      const secrets = tools.find((tool) => tool.name === 'secrets');
      expect(secrets?.status).toBe('failed');
      expect(secrets?.findings[0]?.waiver).toBeUndefined();
      const pending = tools.find((tool) => tool.name === 'policy')?.findings.map((finding) => finding.path);
      expect(pending?.sort()).toEqual(['.gitleaksignore', 'tollgate.config.yaml', 'tollgate.waivers.yaml']);
      for (const text of [relaxed.stdout, relaxed.stderr, relaxed.summary]) expect(text).not.toContain(canary);
    } finally {
      await pr.cleanup();
    }
  }, 120_000);

  test('command scan: a secret added and removed inside the PR still fails, annotated on its line, masked', async () => {
    const history = await createTempRepo({ files: { 'README.md': '# shop\n' } });
    try {
      const base = (await history.git('rev-parse', 'HEAD')).trim();
      await history.write('config/dev.env', `GITHUB_TOKEN=${canary}\n`);
      await history.commit('dev config');
      await history.write('config/dev.env', '# GITHUB_TOKEN comes from the environment\n');
      await history.commit('read the token from the environment');
      const scanned = await runAction(history, { command: 'scan', base, sarif: 'true' }, '');
      expect(scanned.exitCode, scanned.stderr).toBe(1);
      expect(scanned.outputs).toMatchObject({ verdict: 'failed', findings: '1' });
      expect(scanned.stdout).toMatch(/^::error file=config\/dev\.env,line=1,col=\d+,title=secrets\/github-pat/m);
      expect(scanned.summary).toContain('config/dev.env:1');
      const sarif = JSON.parse(readFileSync(scanned.outputs['sarif-path']!, 'utf8'));
      expect(sarif.runs[0].results).toHaveLength(1);
      for (const text of [scanned.stdout, scanned.stderr, scanned.summary, JSON.stringify(sarif)])
        expect(text).not.toContain(canary);

      const clean = await runAction(history, { command: 'scan' }, '');
      expect(clean.exitCode, clean.stderr).toBe(0);
      expect(clean.outputs).toMatchObject({ verdict: 'passed', findings: '0' });
    } finally {
      await history.cleanup();
    }
  }, 60_000);

  test('command validate-alert: decides the alert with the agents, token only to the API, report in the summary', async () => {
    const planted = fakeChecksumToken('ghp_', 'action-alert-planted');
    const alertsToken = 'github_pat_fakeAlertsToken0123456789abcdefABCDEF';
    const source = await createTempRepo({ files: { 'config/prod.env': `GITHUB_TOKEN=${planted}\n` } });
    const bare = join(source.home, 'shop.git');
    await source.git('clone', '--quiet', '--bare', source.root, bare);
    const commit = (await source.git('rev-parse', 'HEAD')).trim();
    const rest = await startFakeGithubRest({
      token: alertsToken,
      repos: {
        'acme/shop': {
          clone_url: `file://${bare}`,
          alerts: {
            12: {
              number: 12,
              state: 'open',
              secret_type: 'github_personal_access_token',
              secret: planted,
              locations: [
                {
                  type: 'commit',
                  details: { path: 'config/prod.env', start_line: 1, commit_sha: commit, blob_sha: 'b' },
                },
              ],
            },
          },
        },
      },
    });
    const report = buildReport({ repository: 'acme/shop', alertId: '12', extra: `The value ${planted} is live.` });
    const fakes = await setupFakeAgents(
      {
        claude: {
          helpFile: helpFileOf('claude'),
          authArgs: ['auth', 'status'],
          routes: [
            {
              when: 'validate-alert: challenge 0 -->',
              steps: [
                {
                  exit: 0,
                  stdout: claudeResult(
                    `\`\`\`json\n${JSON.stringify({ verdict: 'CONFIRMED', reasoning: 'reproduces', evidence_gaps: [], verification_reproduced: true, contradicting_evidence: [] })}\n\`\`\``,
                  ),
                },
              ],
            },
            {
              when: 'analysis 1/1 -->',
              steps: [
                {
                  exit: 0,
                  stdout: claudeResult(report),
                  writeFiles: {
                    'scripts/check-identity.sh': '#!/bin/sh\necho checked\n',
                    'logs/check-identity.log': 'HTTP 200\n',
                  },
                },
              ],
            },
          ],
        },
      },
      source.env,
    );
    try {
      const decided = await runAction(
        source,
        { command: 'validate-alert', alert: '12', agents: 'claude', analyses: '1', token: alertsToken },
        '',
        { ...fakes.env, GITHUB_API_URL: rest.url },
      );
      expect(decided.exitCode, decided.stderr).toBe(1);
      expect(decided.outputs).toMatchObject({ verdict: 'TRUE_POSITIVE', findings: '1' });
      expect(decided.summary).toMatch(/^## tollgate validate-alert: acme\/shop #12: TRUE_POSITIVE/);
      expect(decided.outputs['report-path']).toMatch(/acme\/shop\/12\/final-report\.md$/);
      expect(rest.requests.every((request) => request.authorized)).toBe(true);
      for (const call of fakes.calls()) expect(JSON.stringify(call)).not.toContain(alertsToken);
      for (const text of [decided.stdout, decided.stderr, decided.summary, JSON.stringify(decided.outputs)]) {
        expect(text).not.toContain(planted);
        expect(text).not.toContain(alertsToken);
      }

      const missing = await runAction(source, { command: 'validate-alert' }, '', fakes.env);
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr.trim()).toMatch(/^tollgate: alert: command validate-alert needs the alert number/m);
    } finally {
      await rest.close();
      await fakes.cleanup();
      await source.cleanup();
    }
  }, 120_000);
});
