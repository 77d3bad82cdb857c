import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { helpFileOf, setupFakeAgents } from '../fakes/fake-agents.js';
import { startFakeGithubRest } from '../fakes/github-rest/server.js';
import {
  actionYml,
  createRunnerFiles,
  parseOutputs,
  repoRoot,
  runActionMain,
  runnerEnvironment,
} from '../support/action-runner.js';
import { buildReport, claudeResult } from '../support/build-report.js';
import { createTempRepo, removeDir, type TempRepo } from '../support/git-repo.js';

const root = repoRoot;
const action = actionYml;
const canary = fakeChecksumToken('ghp_', 'action-canary');
const token = 'ghs_fakeRunnerToken0123456789abcdefABCDEF';
const runtimeToken = 'fake-actions-runtime-token-0123456789';

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

async function runAction(repo: TempRepo, inputs: Record<string, string>, event: string, extra: NodeJS.ProcessEnv = {}) {
  const files = await createRunnerFiles();
  runnerDirs.push(files.dir);
  const env = {
    ...repo.env,
    ...runnerEnvironment(files, repo.root),
    // A JavaScript action's process also gets the runner's own service token; the gate must not pass it on.
    ACTIONS_RUNTIME_TOKEN: runtimeToken,
    GITHUB_EVENT_PATH: event,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_API_URL: apiUrl,
    GITHUB_REPOSITORY: 'acme/shop',
    ...extra,
  };
  const result = await runActionMain(repo.root, env, inputs, token);
  return {
    ...result,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
  };
}

test("action.yml is a JavaScript action on the runner's Node, its main the committed bundle", () => {
  expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.cjs' });
  expect(readFileSync(join(root, action.runs.main), 'utf8')).toContain('tollgate.cjs');
});

describe('the GitHub Action, run as the runner runs a JavaScript action', () => {
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
    expect(comments.filter((c) => c.body.includes('tollgate:sticky-comment'))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);

    const second = await runAction(repo, { comment: 'true' }, event);
    expect(second.exitCode).toBe(1);
    expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
    expect(comments.filter((c) => c.body.includes('tollgate:sticky-comment'))).toHaveLength(1);
    expect(requests.filter((r) => !r.endsWith(' auth'))).toEqual([]);
    expect(second.outputs['sarif-path']).toBe('');

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
      "  found.push({ pid, token: environ.split('\\0').some((v) => /^(TOLLGATE_TOKEN|GITHUB_TOKEN|GH_TOKEN|INPUT_TOKEN|ACTIONS_RUNTIME_TOKEN)=./.test(v) || v.includes(process.argv[3])) });",
      "  const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');",
      "  pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);",
      '}',
      'const own = Object.keys(process.env).filter((name) => /^(INPUT_|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN)/.test(name));',
      'fs.writeFileSync(process.argv[2], JSON.stringify({ found, own }));',
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
      const { found: ancestors, own } = JSON.parse(readFileSync(out, 'utf8')) as {
        found: Array<{ pid: number; token: boolean }>;
        own: string[];
      };
      expect(own).toEqual([]);
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

  test('a replacement of the base commit whose tree holds the key hides it from neither `run` nor `scan`', async () => {
    const pr = await createTempRepo({
      files: { 'README.md': '# shop\n', 'tollgate.config.yaml': 'validation:\n  advisories: { enabled: false }\n' },
    });
    try {
      const base = (await pr.git('rev-parse', 'HEAD')).trim();
      await pr.git('checkout', '-q', '-b', 'agent/keys');
      await pr.write('config/dev.env', `GITHUB_TOKEN=${canary}\n`);
      await pr.commit('dev config');
      // The base commit, replaced by one whose tree already holds the key: with replace refs on, the diff is empty.
      const standIn = (await pr.git('commit-tree', 'HEAD^{tree}', '-m', 'stand-in')).trim();
      await pr.git('replace', base, standIn);
      for (const command of ['run', 'scan']) {
        const result = await runAction(pr, { command, base }, '');
        expect(result.exitCode, result.stderr).toBe(1);
        expect(result.outputs).toMatchObject({ verdict: 'failed' });
        // The key's own annotation (run: `title=secrets: …(github-pat)`, scan: `title=secrets/github-pat`).
        expect(result.stdout).toMatch(/^::error file=config\/dev\.env,line=1,col=\d+,title=secrets.*github-pat/m);
        for (const text of [result.stdout, result.stderr, result.summary]) expect(text).not.toContain(canary);
      }
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
