import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createRunnerFiles,
  parseOutputs,
  repoRoot as projectRoot,
  runActionMain,
  runnerEnvironment,
} from '../support/action-runner.js';
import { createTempRepo, removeDir, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * A validator declared in config (a 10-line script that prints JSON findings) runs like a built-in one everywhere
 * users meet it: `tollgate run` and every report format, the MCP server's own tool and `parallel_validation`, and the
 * GitHub Action. A change that declares a validator for itself is a policy edit: the base's config applies.
 */
const SCRIPT = readFileSync(join(import.meta.dirname, '../fixtures/declared-validator/todo-validator.mjs'), 'utf8');
const OFF = 'validation:\n  advisories: { enabled: false }\n  static_analysis: { enabled: false }\n';
const DECLARED = 'validators:\n  todo_markers:\n    run: node scripts/todo-validator.mjs\n    title: TODO markers\n';
const CONFIG = `${OFF}${DECLARED}`;

interface Report {
  verdict: string;
  tools: Array<{ name: string; title: string; status: string; findings: Array<Record<string, unknown>> }>;
}

let repo: TempRepo;
const dirs: string[] = [];
beforeAll(async () => {
  repo = await createTempRepo({
    files: { 'README.md': '# demo\n', 'scripts/todo-validator.mjs': SCRIPT, 'tollgate.config.yaml': CONFIG },
  });
  await repo.git('checkout', '-q', '-b', 'feature');
  await repo.write('src/a.ts', 'export const a = 1;\n// TODO handle errors\n');
}, 60_000);
afterAll(async () => {
  await repo.cleanup();
  await Promise.all(dirs.map((dir) => removeDir(dir)));
});

describe('a validator declared in config', () => {
  test('runs in `tollgate run`, and its findings are in every report format', async () => {
    const json = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(json.exitCode, json.stderr).toBe(1);
    const report = JSON.parse(json.stdout) as Report;
    const tool = report.tools.find((candidate) => candidate.name === 'todo_markers');
    expect(tool).toMatchObject({ title: 'TODO markers', status: 'failed' });
    expect(tool?.findings).toEqual([
      expect.objectContaining({ validator: 'todo_markers', ruleId: 'todo', path: 'src/a.ts', line: 2 }),
    ]);
    // `--only` takes a declared validator's name as it takes a built-in one's.
    const only = await runCli(['run', '--only', 'todo_markers', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect((JSON.parse(only.stdout) as Report).tools.map((candidate) => candidate.name)).toEqual(['todo_markers']);
    for (const format of ['markdown', 'sarif', 'html', 'github']) {
      const run = await runCli(['run', '--format', format], { cwd: repo.root, env: repo.env });
      expect(run.exitCode, `${format}: ${run.stderr}`).toBe(1);
      expect(run.stdout, format).toContain('todo_markers');
      expect(run.stdout, format).toContain('TODO left in');
    }
  }, 120_000);

  test('has its own MCP tool and runs in parallel_validation (the built server over stdio)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp'],
      cwd: repo.root,
      env: repo.env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'declared-validator-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools;
      const own = tools.find((candidate) => candidate.name === 'todo_markers');
      expect(own?.description).toContain('validators.todo_markers');
      expect(tools.map((candidate) => candidate.name)).toContain('parallel_validation');
      for (const name of ['todo_markers', 'parallel_validation']) {
        const answer = await client.callTool({ name, arguments: {} });
        const structured = answer.structuredContent as Report;
        const tool = structured.tools.find((candidate) => candidate.name === 'todo_markers');
        expect(tool?.status, name).toBe('failed');
        expect(JSON.stringify(answer.content), name).toContain('TODO left in');
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  test('runs in the GitHub Action: verdict, annotation, SARIF and summary', async () => {
    const files = await createRunnerFiles();
    dirs.push(files.dir);
    const base = (await repo.git('rev-parse', 'main')).trim();
    await repo.git('add', '-A');
    await repo.git('commit', '-qm', 'a change with a TODO');
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const event = join(files.dir, 'event.json');
    const payload = readFileSync(join(projectRoot, 'test/fixtures/github-action/pull_request.json'), 'utf8');
    writeFileSync(event, payload.replace('BASE_SHA', base).replace('HEAD_SHA', head));
    const env = {
      ...repo.env,
      ...runnerEnvironment(files, repo.root),
      GITHUB_EVENT_PATH: event,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REPOSITORY: 'acme/shop',
    };
    const run = await runActionMain(repo.root, env, { comment: 'false', sarif: 'true' }, 'ghs_unused');
    expect(run.exitCode, `${run.stderr}\n${run.stdout}`).toBe(1);
    const outputs = parseOutputs(readFileSync(files.output, 'utf8'));
    expect(outputs.verdict).toBe('failed');
    expect(run.stdout).toMatch(/^::(warning|error) file=src\/a\.ts,line=2.*TODO left in/m);
    expect(readFileSync(outputs['sarif-path']!, 'utf8')).toContain('TODO left in');
    expect(readFileSync(files.summary, 'utf8')).toContain('todo_markers');
  }, 120_000);
});

describe('a change that declares a validator for itself', () => {
  test('is a pending policy edit: the base config applies, the validator does not run, and the run fails', async () => {
    const own = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': OFF } });
    try {
      await own.git('checkout', '-q', '-b', 'feature');
      await own.write('scripts/pass.mjs', 'console.log(JSON.stringify({ findings: [] }));\n');
      await own.write('tollgate.config.yaml', `${OFF}validators:\n  always_passes:\n    run: node scripts/pass.mjs\n`);
      const run = await runCli(['run', '--format', 'json'], { cwd: own.root, env: own.env });
      expect(run.exitCode, run.stderr).toBe(1);
      const report = JSON.parse(run.stdout) as Report;
      expect(report.tools.map((tool) => tool.name)).not.toContain('always_passes');
      expect(report.tools.find((tool) => tool.name === 'policy')?.findings).toMatchObject([
        { path: 'tollgate.config.yaml' },
      ]);
    } finally {
      await own.cleanup();
    }
  }, 60_000);
});
