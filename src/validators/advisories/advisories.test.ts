import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { toolContext } from '../../../test/support/tool-context.js';
import type { ChangedFile, RepoChangeSet } from '../../core/change-set/types.js';
import { runProcess } from '../../core/process.js';
import type { ToolResult } from '../../core/result.js';
import { advisoriesTool } from './index.js';
import type { AdvisoriesInput, AdvisoriesOptions } from './options.js';
import { runAdvisories } from './run-advisories.js';
import { createResponseCache } from './sources/response-cache.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/advisories');
const recorded = JSON.parse(readFileSync(join(FIXTURES, 'osv/querybatch-results.json'), 'utf8')) as Record<
  string,
  unknown[]
>;

type Mode = 'ok' | '429' | '500' | 'hang' | 'malformed' | 'wrong-shape';

/** A local stand-in for api.osv.dev and api.github.com/graphql, replaying recorded answers. */
interface FakeServer {
  url: string;
  mode: Mode;
  /** Every querybatch query received, as `ecosystem/name@version`. */
  queries: string[];
  requests: number;
  githubAuth: string[];
  githubAnswer: string;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
  });
}

function startServer(): Promise<{ server: Server; fake: FakeServer }> {
  const fake: FakeServer = {
    url: '',
    mode: 'ok',
    queries: [],
    requests: 0,
    githubAuth: [],
    githubAnswer: 'github/lodash-minimist.json',
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    fake.requests++;
    const body = await readBody(request);
    const json = (status: number, value: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(value);
    };
    switch (fake.mode) {
      case 'hang':
        return; // never answers
      case '429':
        return json(429, '{"code":8,"message":"Too many requests"}', { 'retry-after': '30' });
      case '500':
        return json(500, '{"code":13,"message":"internal error"}');
      case 'malformed':
        return json(200, '{"results": [');
      case 'wrong-shape':
        return json(200, '{"results": "nope"}');
      case 'ok':
        break;
    }
    if (request.url === '/graphql') {
      fake.githubAuth.push(String(request.headers.authorization));
      return json(200, readFileSync(join(FIXTURES, fake.githubAnswer), 'utf8'));
    }
    if (request.url === '/v1/querybatch' && request.method === 'POST') {
      const { queries } = JSON.parse(body) as {
        queries: { package: { ecosystem: string; name: string }; version: string }[];
      };
      const results = queries.map((query) => {
        const key = `${query.package.ecosystem}/${query.package.name}@${query.version}`;
        fake.queries.push(key);
        const vulns = recorded[key];
        return vulns ? { vulns } : {};
      });
      return json(200, JSON.stringify({ results }));
    }
    const vuln = /^\/v1\/vulns\/([A-Za-z0-9-]+)$/.exec(request.url ?? '');
    if (vuln) {
      try {
        return json(200, readFileSync(join(FIXTURES, 'osv/vulns', `${vuln[1]}.json`), 'utf8'));
      } catch {
        return json(404, '{"code":5,"message":"Bug not found."}');
      }
    }
    json(404, '{}');
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      done({ server, fake });
    }),
  );
}

let server: Server;
let fake: FakeServer;
beforeAll(async () => {
  ({ server, fake } = await startServer());
});
afterAll(
  () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
);
beforeEach(() => {
  fake.mode = 'ok';
  fake.queries = [];
  fake.requests = 0;
  fake.githubAuth = [];
  fake.githubAnswer = 'github/lodash-minimist.json';
});

interface RunOptions {
  root: string;
  options?: unknown;
  input?: AdvisoriesInput;
  files?: ChangedFile[];
  base?: string | null;
  env?: NodeJS.ProcessEnv;
  read?: (path: string) => Promise<string | null>;
}

async function run({
  root,
  options = {},
  input = {},
  files = [],
  base = null,
  env = {},
  read,
}: RunOptions): Promise<ToolResult> {
  const changeSet: RepoChangeSet = {
    root,
    base: { ref: base, commit: base, source: base ? 'head' : 'empty' },
    files,
    ignored: [],
    skipped: [],
    fingerprint: 'test',
    isEmpty: files.length === 0,
    head: null,
    hasCommits: false,
    readText: read ?? (async () => null),
    readBytes: async () => null,
    diff: async () => '',
  };
  const controller = new AbortController();
  const ctx = toolContext<AdvisoriesOptions, AdvisoriesInput>({
    repoRoot: root,
    changeSet,
    options: advisoriesTool.optionsSchema.parse({
      osv: { url: fake.url },
      github: { url: `${fake.url}/graphql` },
      ...(options as object),
    }),
    input: advisoriesTool.inputSchema.parse(input),
    signal: controller.signal,
    artifactsDir: root,
    env: { ...process.env, ...env },
    runProcess: (command, args, processOptions) =>
      runProcess(command, args, { ...processOptions, env: { ...process.env, ...env } }),
  });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await runAdvisories(ctx);
  } finally {
    // Every key put back as it was, not only the new ones removed: a repository's env overwrites HOME with a temp
    // folder removed after this file, and a worker runs other files after this one (isolate: false).
    for (const key of Object.keys(env)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}

const EXPLICIT = [
  'npm:lodash@4.17.15',
  'npm:minimist@1.2.0',
  'pypi:django@3.2.0',
  'go:golang.org/x/net@v0.6.0',
  'cargo:smallvec@1.6.0',
];

describe('advisories for explicit packages (OSV API on a local server)', () => {
  let root: string;
  beforeEach(async () => {
    root = await tempDir('tollgate-advisories-');
  });
  afterEach(() => removeDir(root));

  test('finds the recorded advisories, with severity, range, first fixed version and an upgrade', async () => {
    const outcome = await run({ root, input: { packages: EXPLICIT } });
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toBe(
      '4 vulnerable dependencies at medium or above: lodash@4.17.15 (npm), minimist@1.2.0 (npm), django@3.2.0 (PyPI), smallvec@1.6.0 (crates.io); upgrade them (see the findings for fixed versions) and run tollgate again',
    );
    expect(outcome.findings.map((finding) => [finding.severity, finding.title])).toEqual([
      ['high', 'lodash@4.17.15 (npm): 2 known vulnerabilities; upgrade to 4.17.21'],
      ['critical', 'minimist@1.2.0 (npm): 1 known vulnerability; upgrade to 1.2.6'],
      ['medium', 'django@3.2.0 (PyPI): 1 known vulnerability; upgrade to 3.2.4'],
      ['low', 'golang.org/x/net@v0.6.0 (Go): 1 known vulnerability; upgrade to 0.7.0'],
      ['critical', 'smallvec@1.6.0 (crates.io): 1 known vulnerability; upgrade to 1.6.1'],
    ]);
    expect(outcome.findings[0]?.body).toBe(
      [
        'Checked on request (not from a lockfile).',
        '',
        '- GHSA-35jh-r3h4-6jhm (CVE-2021-23337): high, CVSS 7.2 CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H. Command Injection in lodash. Affected: >=0 <4.17.21; fixed in 4.17.21. https://nvd.nist.gov/vuln/detail/CVE-2021-23337',
        '- GHSA-p6mc-m468-83gw (CVE-2020-8203): high, CVSS 7.4 CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:H. Prototype Pollution in lodash. Affected: >=0 <4.17.20; fixed in 4.17.20. https://nvd.nist.gov/vuln/detail/CVE-2020-8203',
      ].join('\n'),
    );
    expect(fake.queries).toEqual([
      'npm/lodash@4.17.15',
      'npm/minimist@1.2.0',
      'PyPI/django@3.2.0',
      'Go/golang.org/x/net@v0.6.0',
      'crates.io/smallvec@1.6.0',
    ]);
  });

  test('a package without advisories passes, and says what it checked against', async () => {
    const outcome = await run({ root, input: { packages: ['npm:lodash@4.17.21'] } });
    expect(outcome).toMatchObject({
      status: 'passed',
      summary: 'checked 1 dependency against osv: no known vulnerability at medium or above',
      findings: [],
    });
  });

  test.each([
    [
      '429',
      'rate_limited',
      /^could not check 1 dependency: osv: rate limited by http:\/\/127\.0\.0\.1:\d+\/v1\/querybatch \(HTTP 429\); retry after 30 s; wait and rerun/,
    ],
    [
      '500',
      'tool_unavailable',
      /^could not check 1 dependency: osv: http:\/\/127\.0\.0\.1:\d+\/v1\/querybatch failed \(HTTP 500\); this is not a pass/,
    ],
    [
      'hang',
      'tool_unavailable',
      /^could not check 1 dependency: osv: no answer from http:\/\/127\.0\.0\.1:\d+\/v1\/querybatch within 300ms; this is not a pass/,
    ],
    [
      'malformed',
      'error',
      /^could not check 1 dependency: osv: http:\/\/127\.0\.0\.1:\d+\/v1\/querybatch answered malformed JSON \(13 bytes\);/,
    ],
    [
      'wrong-shape',
      'error',
      /^could not check 1 dependency: osv: unexpected querybatch answer at results: Invalid input: expected array, received string;/,
    ],
  ] as const)('a server answering %s is %s, never passed', async (mode, status, summary) => {
    fake.mode = mode;
    // 300 ms is what the hang waits out; a server that answers gets as long as a loaded machine needs to answer.
    const timeout = mode === 'hang' ? '300ms' : `${timeBudget(10_000)}ms`;
    const outcome = await run({ root, input: { packages: ['npm:lodash@4.17.15'] }, options: { timeout } });
    expect(outcome.status).toBe(status);
    expect(outcome.summary).toMatch(summary);
    expect(outcome.findings).toEqual([]);
  });

  test('an unreachable server is tool_unavailable', async () => {
    const closed = createServer();
    const port = await new Promise<number>((done) =>
      closed.listen(0, '127.0.0.1', () => done((closed.address() as AddressInfo).port)),
    );
    await new Promise((done) => closed.close(done));
    const outcome = await run({
      root,
      input: { packages: ['npm:lodash@4.17.15'] },
      options: { osv: { url: `http://127.0.0.1:${port}` } },
    });
    expect(outcome.status).toBe('tool_unavailable');
    expect(outcome.summary).toBe(
      `could not check 1 dependency: osv: cannot reach http://127.0.0.1:${port}/v1/querybatch (ECONNREFUSED); this is not a pass: rerun when the source answers, or use an offline database (advisories.sources: [offline])`,
    );
  });

  test('answers are cached under .tollgate/cache/advisories and reused while the server is down', async () => {
    const first = await run({ root, input: { packages: ['npm:lodash@4.17.15'] } });
    const requests = fake.requests;
    fake.mode = '500';
    const second = await run({ root, input: { packages: ['npm:lodash@4.17.15'] } });
    expect(fake.requests).toBe(requests);
    expect(second.findings).toEqual(first.findings);
    const uncached = await run({
      root,
      input: { packages: ['npm:lodash@4.17.15'] },
      options: { cache: { enabled: false } },
    });
    expect(uncached.status).toBe('tool_unavailable');
  });

  test('an invalid package spec is invalid_input naming it and the expected form', async () => {
    const outcome = await run({ root, input: { packages: ['lodash@4.17.15', 'npm:lodash'] } });
    expect(outcome).toMatchObject({
      status: 'invalid_input',
      summary:
        'advisories input packages: "lodash@4.17.15": expected ecosystem:name@version with an ecosystem of npm, pypi, pip, python, go, golang, crates.io, crates, cargo, rust, rubygems, gem, ruby, packagist, composer, php, maven, nuget; "npm:lodash": expected name@version after "npm:"',
    });
  });
});

describe('advisories from other sources', () => {
  let root: string;
  beforeEach(async () => {
    root = await tempDir('tollgate-advisories-');
  });
  afterEach(() => removeDir(root));

  test('the offline OSV database (unpacked and zipped, ZIP64 included) finds the same advisories with nothing sent', async () => {
    const outcome = await run({
      root,
      input: { packages: EXPLICIT },
      options: { sources: ['offline'], offline: { dir: join(FIXTURES, 'offline') } },
    });
    expect(fake.requests).toBe(0);
    expect(outcome.findings.map((finding) => finding.title)).toEqual([
      'lodash@4.17.15 (npm): 2 known vulnerabilities; upgrade to 4.17.21',
      'minimist@1.2.0 (npm): 1 known vulnerability; upgrade to 1.2.6',
      'django@3.2.0 (PyPI): 1 known vulnerability; upgrade to 3.2.4',
      'golang.org/x/net@v0.6.0 (Go): 1 known vulnerability; upgrade to 0.7.0',
      'smallvec@1.6.0 (crates.io): 1 known vulnerability; upgrade to 1.6.1',
    ]);
  });

  test('a missing offline directory is tool_unavailable with where to get the data', async () => {
    const outcome = await run({
      root,
      input: { packages: ['npm:lodash@4.17.15'] },
      options: { sources: ['offline'], offline: { dir: 'nope' } },
    });
    expect(outcome.status).toBe('tool_unavailable');
    expect(outcome.summary).toContain('offline: no OSV database at');
  });

  test('GitHub: matches ranges itself, merges ranges of one advisory, and sends the token without ever showing it', async () => {
    const token = 'ghp_testtoken_never_shown';
    const withToken = await run({
      root,
      input: { packages: ['npm:lodash@4.17.15', 'npm:minimist@1.2.0'] },
      options: { sources: ['github'], github: { url: `${fake.url}/graphql`, tokenEnv: ['TOLLGATE_TEST_GH'] } },
      env: { TOLLGATE_TEST_GH: token },
    });
    expect(fake.githubAuth).toContain(`bearer ${token}`);
    expect(withToken.findings.map((finding) => [finding.severity, finding.title])).toEqual([
      ['high', 'lodash@4.17.15 (npm): 2 known vulnerabilities; upgrade to 4.17.21'],
      ['critical', 'minimist@1.2.0 (npm): 1 known vulnerability; upgrade to 1.2.6'],
    ]);
    expect(JSON.stringify(withToken)).not.toContain(token);
  });

  test('GitHub without a token is tool_unavailable saying which variable to set', async () => {
    const outcome = await run({
      root,
      input: { packages: ['npm:lodash@4.17.15'] },
      options: { sources: ['github'], github: { url: `${fake.url}/graphql`, tokenEnv: ['TOLLGATE_NO_SUCH_TOKEN'] } },
    });
    expect(outcome).toMatchObject({
      status: 'tool_unavailable',
      summary:
        'could not check 1 dependency: github: no token in TOLLGATE_NO_SUCH_TOKEN; set one (no scopes needed) to query the GitHub Advisory Database; this is not a pass: rerun when the source answers, or use an offline database (advisories.sources: [offline])',
    });
  });

  test('GitHub RATE_LIMITED is rate_limited', async () => {
    fake.githubAnswer = 'github/rate-limited.json';
    const outcome = await run({
      root,
      input: { packages: ['npm:lodash@4.17.15'] },
      options: { sources: ['github'], github: { url: `${fake.url}/graphql`, tokenEnv: ['TOLLGATE_TEST_GH'] } },
      env: { TOLLGATE_TEST_GH: 'x' },
    });
    expect(outcome.status).toBe('rate_limited');
  });

  test('two sources agreeing report each advisory once, with both sources', async () => {
    const outcome = await run({
      root,
      input: { packages: ['npm:minimist@1.2.0'] },
      options: { sources: ['osv', 'offline'], offline: { dir: join(FIXTURES, 'offline') } },
    });
    expect(outcome.findings).toHaveLength(1);
    expect(
      (outcome.details!.vulnerable as { advisories: { sources: string[] }[] }[])[0]?.advisories[0]?.sources,
    ).toEqual(['osv', 'offline']);
  });
});

describe('advisories from the change set (real git repository)', () => {
  let repo: TempRepo;
  const lock = (which: 'before' | 'after') =>
    readFileSync(join(FIXTURES, 'lockfiles/npm', which, 'package-lock.json'), 'utf8');
  beforeEach(async () => {
    repo = await createTempRepo({ files: { 'package-lock.json': lock('before'), 'README.md': 'x\n' } });
  });
  afterEach(() => repo.cleanup());

  async function runOnRepo(options: unknown = {}, input: AdvisoriesInput = {}) {
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('package-lock.json', lock('after'));
    const file: ChangedFile = {
      path: 'package-lock.json',
      status: 'modified',
      binary: false,
      addedLines: [{ start: 1, end: 10 }],
      changedLines: [{ start: 1, end: 10 }],
      size: 1,
    };
    return run({
      root: repo.root,
      files: [file],
      base,
      env: repo.env,
      options,
      input,
      read: async (path) => readFileSync(join(repo.root, path), 'utf8'),
    });
  }

  test('checks only the dependencies the lockfile diff added or changed, and says they came with this change', async () => {
    const outcome = await runOnRepo();
    // All 14 pairs of the new lock are new (the base locked lodash 4.17.21 and minimist 1.2.8 only).
    expect(fake.queries).toHaveLength(14);
    expect(fake.queries).toContain('npm/lodash@4.17.15');
    expect(fake.queries).not.toContain('npm/lodash@4.17.21');
    expect(outcome.status).toBe('failed');
    expect(outcome.findings.map((finding) => [finding.path, finding.title])).toEqual([
      ['package-lock.json', 'lodash@4.17.15 (npm): 2 known vulnerabilities; upgrade to 4.17.21'],
      ['package-lock.json', 'minimist@1.2.0 (npm): 1 known vulnerability; upgrade to 1.2.6'],
    ]);
    expect(outcome.findings[0]?.body?.split('\n')[0]).toBe(
      'Introduced by this change: package-lock.json moved it from 4.17.21.',
    );
  });

  test('a change without lockfiles passes without asking anyone', async () => {
    const outcome = await run({ root: repo.root, files: [] });
    expect(outcome.status).toBe('passed');
    expect(outcome.summary).toMatch(/^no lockfile or manifest changed/);
    expect(fake.requests).toBe(0);
  });
});

describe('response cache', () => {
  test('an entry older than the TTL is a miss', async () => {
    const dir = await tempDir('tollgate-cache-');
    let now = 1_000;
    const cache = createResponseCache({ dir, ttlMs: 100, now: () => now });
    const schema = advisoriesTool.inputSchema;
    await cache.set('k', { packages: ['npm:a@1.0.0'] });
    expect(await cache.get('k', schema)).toEqual({ packages: ['npm:a@1.0.0'] });
    now += 101;
    expect(await cache.get('k', schema)).toBeUndefined();
    await removeDir(dir);
  });
});
