import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { repoRoot } from '../support/action-runner.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { readWorkflow, runJob, type StandIn, type Workflow } from '../support/workflow-runner.js';

/**
 * The runner harness on docs/ci: each example's job runs against a scratch project as a runner would run it after
 * the copy, with tollgate's Action itself from action/dist and stand-ins for the other actions. The projects' checks
 * need their dependencies, so an example that gated before installing them would fail here.
 */
const ownAction = 'tollgate-dev/tollgate@v0';
const token = 'ghs_exampleWorkflowToken0123456789abcdef';
const dirs: string[] = [];
const requests: string[] = [];
const uploads: Array<{ category: string; results: number }> = [];
let api: Server;
let apiUrl = '';

beforeAll(async () => {
  api = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.statusCode = req.method === 'POST' ? 201 : 200;
    res.end(req.method === 'GET' ? '[]' : '{"id": 1}');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => api.close(() => resolve()));
  await Promise.all(dirs.map((dir) => removeDir(dir)));
});

const standIns: Record<string, StandIn> = {
  // The job's workspace is the project's checkout already; tollgate's own repository is this one.
  'actions/checkout': async ({ with: inputs, workspace }) => {
    if (inputs.repository === 'tollgate-dev/tollgate') symlinkSync(repoRoot, join(workspace, inputs.path ?? ''));
    return { exitCode: 0 };
  },
  // This test's Node is on PATH already.
  'actions/setup-node': async () => ({ exitCode: 0 }),
  // A Python of the job's own: a virtual environment put first on PATH, as setup-python puts the Python it installs.
  // Seeding pip into it (ensurepip) costs seconds of CPU; the system Python's own pip, seen through
  // --system-site-packages, installs into the venv just the same. Where there is none, the venv gets its own pip.
  'actions/setup-python': async ({ env, addPath }) => {
    const venv = join(env.RUNNER_TEMP ?? '', 'python');
    const options = { cwd: env.RUNNER_TEMP ?? '/', env, timeoutMs: 120_000 };
    const bare = await runProcess('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', venv], options);
    const pip =
      bare.exitCode === 0 ? await runProcess(join(venv, 'bin', 'python'), ['-m', 'pip', '--version'], options) : bare;
    const made = pip.exitCode === 0 ? pip : await runProcess('python3', ['-m', 'venv', '--clear', venv], options);
    addPath(join(venv, 'bin'));
    return { exitCode: made.exitCode ?? 1 };
  },
  'github/codeql-action/upload-sarif': async ({ with: inputs }) => {
    const sarif = JSON.parse(readFileSync(inputs.sarif_file ?? '', 'utf8')) as {
      version: string;
      runs: Array<{ results: unknown[] }>;
    };
    expect(sarif.version).toBe('2.1.0');
    uploads.push({
      category: inputs.category ?? '',
      results: sarif.runs.reduce((n, run) => n + run.results.length, 0),
    });
    return { exitCode: 0 };
  },
};

/** A project with one commit on main, a pull request branch with one more, and the pull_request event for it. */
async function pullRequest(files: Record<string, string>, change: Record<string, string>) {
  const repo = await createTempRepo({ files });
  const base = (await repo.git('rev-parse', 'HEAD')).trim();
  await repo.git('checkout', '-q', '-b', 'feature');
  for (const [path, text] of Object.entries(change)) await repo.write(path, text);
  await repo.commit('the change');
  const head = (await repo.git('rev-parse', 'HEAD')).trim();
  const event = join(repo.home, 'event.json');
  const payload = readFileSync(join(repoRoot, 'test/fixtures/github-action/pull_request.json'), 'utf8');
  writeFileSync(event, payload.replace('BASE_SHA', base).replace('HEAD_SHA', head));
  return { repo, event };
}

async function runExample(file: string, repo: TempRepo, event: string) {
  const workflow = readWorkflow(join(repoRoot, file));
  const [job] = Object.values(workflow.jobs);
  const runnerDir = await tempDir('tollgate-example-');
  dirs.push(runnerDir);
  const env = {
    ...repo.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: event,
    GITHUB_API_URL: apiUrl,
    GITHUB_REPOSITORY: 'acme/shop',
    // Offline: installs come from the project's own folder, never a registry.
    npm_config_offline: 'true',
    PIP_NO_INDEX: '1',
  };
  return runJob(job!, { workspace: repo.root, runnerDir, env, ownAction, githubToken: token, standIns });
}

function logOf(run: Awaited<ReturnType<typeof runExample>>): string {
  return run.steps.map((step) => `--- ${step.step}: ${step.outcome}\n${step.log}`).join('\n');
}

// The project's checks are the gate's: they pass only with the project's dependencies installed.
const gateConfig = (check: string) =>
  `checks:\n  - name: tests\n    run: ${check}\nvalidation:\n  advisories: { enabled: false }\n`;

describe('docs/ci examples, run by the runner harness', () => {
  test('gate.yml: a JavaScript project, npm ci before the gate, comment and SARIF upload', async () => {
    const { repo, event } = await pullRequest(
      {
        '.gitignore': 'node_modules/\n',
        'package.json': JSON.stringify({
          name: 'shop',
          version: '1.0.0',
          private: true,
          scripts: { test: 'node test.js' },
          dependencies: { 'shop-money': 'file:vendor/shop-money' },
        }),
        'package-lock.json': JSON.stringify({
          name: 'shop',
          version: '1.0.0',
          lockfileVersion: 3,
          requires: true,
          packages: {
            '': { name: 'shop', version: '1.0.0', dependencies: { 'shop-money': 'file:vendor/shop-money' } },
            'node_modules/shop-money': { resolved: 'vendor/shop-money', link: true },
            'vendor/shop-money': { version: '1.0.0' },
          },
        }),
        'vendor/shop-money/package.json': '{"name":"shop-money","version":"1.0.0","main":"index.js"}\n',
        'vendor/shop-money/index.js': 'exports.cents = (amount) => Math.round(amount * 100);\n',
        'test.js': "const { cents } = require('shop-money');\nif (cents(1.5) !== 150) process.exit(1);\n",
        'tollgate.config.yaml': gateConfig('npm test'),
      },
      { 'src/price.js': 'export const price = 1.5;\n' },
    );
    try {
      const before = uploads.length;
      const run = await runExample('docs/ci/gate.yml', repo, event);
      expect(run.conclusion, logOf(run)).toBe('success');
      expect(existsSync(join(repo.root, 'node_modules/shop-money'))).toBe(true);
      expect(run.summary).toMatch(/1 check\(s\) passed/);
      expect(uploads.slice(before)).toEqual([{ category: 'tollgate', results: 0 }]);
      expect(requests).toContain('POST /repos/acme/shop/issues/7/comments');
    } finally {
      await repo.cleanup();
    }
  }, 240_000);

  test('gate-python.yml: a Python project, pip install before the gate', async () => {
    const { repo, event } = await pullRequest(
      {
        '.gitignore': '__pycache__/\n',
        'requirements.txt': './vendor/shop_money-1.0-py3-none-any.whl\n',
        'tests/test_money.py':
          'import unittest\nfrom shop_money import cents\n\nclass Money(unittest.TestCase):\n    def test_cents(self):\n        self.assertEqual(cents(1.5), 150)\n',
        'tollgate.config.yaml': gateConfig('python -m unittest discover -s tests'),
      },
      { 'tests/__init__.py': '' },
    );
    try {
      // A wheel built here, so pip installs it with no index: a zip with the module and its metadata.
      const wheel = [
        'import zipfile, sys',
        "with zipfile.ZipFile(sys.argv[1], 'w') as z:",
        "    z.writestr('shop_money/__init__.py', 'def cents(amount):\\n    return round(amount * 100)\\n')",
        "    z.writestr('shop_money-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: shop-money\\nVersion: 1.0\\n')",
        "    z.writestr('shop_money-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')",
        "    z.writestr('shop_money-1.0.dist-info/RECORD', '')",
      ].join('\n');
      await runProcess('mkdir', ['-p', join(repo.root, 'vendor')], {
        cwd: repo.root,
        env: repo.env,
        timeoutMs: 10_000,
      });
      const built = await runProcess(
        'python3',
        ['-c', wheel, join(repo.root, 'vendor/shop_money-1.0-py3-none-any.whl')],
        {
          cwd: repo.root,
          env: repo.env,
          timeoutMs: 30_000,
        },
      );
      expect(built.exitCode, built.stderr).toBe(0);
      await repo.git('add', 'vendor');
      await repo.commit('vendor the wheel');
      const run = await runExample('docs/ci/gate-python.yml', repo, event);
      expect(run.conclusion, logOf(run)).toBe('success');
      expect(run.steps.map((step) => step.outcome)).toEqual(['success', 'success', 'success', 'success', 'success']);
    } finally {
      await repo.cleanup();
    }
  }, 240_000);

  test('secret-history.yml and advisories.yml run their steps', async () => {
    const { repo, event } = await pullRequest({ 'README.md': '# shop\n' }, { 'docs/a.md': 'A page.\n' });
    try {
      const scan = await runExample('docs/ci/secret-history.yml', repo, event);
      expect(scan.conclusion, logOf(scan)).toBe('success');
      const advisories = await runExample('docs/ci/advisories.yml', repo, event);
      expect(advisories.conclusion, logOf(advisories)).toBe('success');
    } finally {
      await repo.cleanup();
    }
  }, 240_000);
});

describe('docs/ci examples ask for the permissions they use, per job', () => {
  const examples = ['gate.yml', 'gate-python.yml', 'secret-history.yml', 'advisories.yml', 'alert-triage.yml'];
  test.each(examples)('%s', (name) => {
    const workflow: Workflow = readWorkflow(join(repoRoot, 'docs/ci', name));
    expect(workflow.permissions).toEqual({});
    for (const job of Object.values(workflow.jobs)) {
      const uses = job.steps.map((step) => step.uses ?? '');
      const comments = job.steps.some((step) => step.uses === ownAction && step.with?.comment === 'true');
      const uploadsSarif = uses.some((action) => action.startsWith('github/codeql-action/upload-sarif@'));
      expect(job.permissions?.contents).toBe('read');
      expect(job.permissions?.['pull-requests']).toBe(comments ? 'write' : undefined);
      expect(job.permissions?.['security-events']).toBe(uploadsSarif ? 'write' : undefined);
      expect(job.permissions?.actions).toBe(uploadsSarif ? 'read' : undefined);
    }
  });
});
