import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPORT_FORMATS } from '../../src/report/index.js';
import { ALPHANUMERIC, BASE32, BASE64, fakeChecksumToken, fakeToken } from '../../src/secrets/sample-tokens.js';
import { type FakeGithubServer, startFakeGithub } from '../fakes/github/server.js';
import { addPullRequest, addThread, comment, createWorld } from '../fakes/github/world.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * Canary secrets of every class: provider tokens with a prefix planted in a changed file, printed by a failing check
 * and echoed by a hook; a keyword-less 40-character AWS secret key that a check prints from `$AWS_SECRET_ACCESS_KEY`;
 * the value of another credential-named environment variable; a bare secret key printed next to its key id; and the
 * same values quoted in a pull-request review comment. Then every channel is searched for them: `tollgate run`
 * stdout in each format and its `--output` file, `tollgate scan` in each format, the MCP server's results, the stop
 * hook's reply, `tollgate comments --json`, `tollgate log`, a config error quoting a pasted token, and every file in
 * `.tollgate/` (events, check logs, state, review-thread state). Only masked forms may appear.
 */
const awsCsvKeyId = `AKIA${fakeToken('', 16, BASE32, 'canary-csv-id')}`;
const canaries = {
  github: fakeChecksumToken('ghp_', 'canary-github'),
  npm: fakeChecksumToken('npm_', 'canary-npm'),
  aws: `AKIA${fakeToken('', 16, BASE32, 'canary-aws')}`,
  dbPassword: `Pg${fakeToken('', 14, undefined, 'canary-db')}`,
  awsSecretFromEnv: fakeToken('', 40, BASE64, 'canary-aws-secret-env'),
  credentialEnvValue: fakeToken('', 28, ALPHANUMERIC, 'canary-deploy-token'),
  secretNextToKeyId: fakeToken('', 40, BASE64, 'canary-aws-secret-csv'),
};

/** What the CLI process inherits, as an agent's or CI's environment would hold it. */
const credentialEnv = {
  AWS_SECRET_ACCESS_KEY: canaries.awsSecretFromEnv,
  DEPLOY_TOKEN: canaries.credentialEnvValue,
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

describe('no secret leaves tollgate unmasked', () => {
  let repo: TempRepo;
  let github: FakeGithubServer;
  let outDir: string;
  const outputs: Array<{ channel: string; text: string }> = [];
  const record = (channel: string, ...texts: string[]) => {
    for (const text of texts) outputs.push({ channel, text });
  };

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'tollgate-canary-out-'));
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': [
          'checks:',
          '  - name: leaky test',
          `    run: "echo connecting with token ${canaries.github}; echo postgres://app:${canaries.dbPassword}@db.internal:5432/shop; echo uploading with $AWS_SECRET_ACCESS_KEY; echo deploy $DEPLOY_TOKEN; cat fixtures/creds.csv; exit 1"`,
          'hooks:',
          '  stop: { run: true, timeout: 60s }',
          '  postToolUse:',
          `    - run: "echo '{\\"additionalContext\\":\\"npm token ${canaries.npm}\\"}'"`,
          '',
        ].join('\n'),
        'README.md': '# shop\n',
        'fixtures/creds.csv': `access_key,secret\n${awsCsvKeyId},${canaries.secretNextToKeyId}\n`,
      },
    });
    await repo.git('remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
    await repo.write(
      'src/config.ts',
      `export const awsKeyId = '${canaries.aws}';\nexport const npmToken = "${canaries.npm}";\n`,
    );
    const env = { ...repo.env, ...credentialEnv };

    for (const format of REPORT_FORMATS) {
      const result = await runCli(['run', '--format', format], { cwd: repo.root, env });
      expect(result.exitCode).toBe(1);
      record(`run --format ${format}`, result.stdout, result.stderr);
      const file = join(outDir, `report.${format}`);
      const written = await runCli(['run', '--format', format, '--output', file], { cwd: repo.root, env });
      record(`run --format ${format} --output`, written.stdout, written.stderr, readFileSync(file, 'utf8'));
    }
    for (const format of ['markdown', 'json', 'sarif']) {
      const result = await runCli(['scan', '--all', '--format', format], { cwd: repo.root, env });
      expect(result.exitCode).toBe(1);
      record(`scan --format ${format}`, result.stdout, result.stderr);
    }

    const stop = await runCli(['hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env,
      input: JSON.stringify({ session_id: 'canary', cwd: repo.root, hook_event_name: 'Stop', stop_hook_active: false }),
    });
    expect(stop.stdout).toContain('"decision":"block"');
    record('hook stop', stop.stdout, stop.stderr);

    const mcpStderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp'],
      cwd: repo.root,
      env: { ...(env as Record<string, string>) },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => mcpStderr.push(chunk.toString()));
    const client = new Client({ name: 'canary', version: '1.0.0' });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    for (const name of names.filter((tool) => tool !== 'validation_status')) {
      record(`mcp ${name}`, JSON.stringify(await client.callTool({ name, arguments: {} })));
    }
    record(
      'mcp validation_status',
      JSON.stringify(await client.callTool({ name: 'validation_status', arguments: {} })),
    );
    await client.close();
    record('mcp stderr', mcpStderr.join(''));

    const world = createWorld();
    const pr = addPullRequest(world);
    addThread(pr, {
      comments: [
        comment({
          body: `This leaks: ${canaries.github} and ${canaries.awsSecretFromEnv}; the deploy uses ${canaries.credentialEnvValue}.`,
        }),
      ],
    });
    github = await startFakeGithub(world);
    const githubEnv = {
      ...env,
      TOLLGATE_GITHUB_TRANSPORT: 'https',
      GITHUB_GRAPHQL_URL: github.url,
      GITHUB_TOKEN: 'canary-transport-token',
    };
    for (const args of [
      ['comments', '--pr', '7', '--json'],
      ['comments', '--pr', '7'],
    ]) {
      const result = await runCli(args, { cwd: repo.root, env: githubEnv });
      record(args.join(' '), result.stdout, result.stderr);
    }

    for (const args of [['log'], ['log', '--json'], ['log', '--list'], ['log', '--format', 'html']]) {
      const result = await runCli(args, { cwd: repo.root, env });
      record(args.join(' '), result.stdout, result.stderr);
    }
    // An error that quotes input: a token pasted into the wrong config field.
    const config = readFileSync(join(repo.root, 'tollgate.config.yaml'), 'utf8');
    await repo.write(
      'tollgate.config.yaml',
      `validation:\n  timeout: "${canaries.github}"\nchecks:\n  - name: x\n    run: "true"\n    timeout: "${canaries.credentialEnvValue}"\n`,
    );
    const broken = await runCli(['run'], { cwd: repo.root, env });
    expect(broken.exitCode).toBe(2);
    record('config error', broken.stdout, broken.stderr);
    await repo.write('tollgate.config.yaml', config);

    for (const file of filesUnder(join(repo.root, '.tollgate'))) record(file, readFileSync(file, 'utf8'));
  }, 240_000);
  afterAll(async () => {
    await github?.close();
    rmSync(outDir, { recursive: true, force: true });
    await repo.cleanup();
  });

  test('the run found the planted secrets and the failing check', () => {
    const text = outputs.map((output) => output.text).join('\n');
    expect(text).toContain('check "leaky test" failed');
    expect(text).toMatch(/secrets/);
    expect(text).toContain('uploading with ***');
    expect(text).toContain('This leaks');
  });

  test('every channel was captured', () => {
    const channels = new Set(outputs.map((output) => output.channel));
    for (const channel of [
      'run --format json --output',
      'scan --format sarif',
      'hook stop',
      'comments --pr 7 --json',
    ]) {
      expect(channels).toContain(channel);
    }
    expect([...channels].some((channel) => channel.startsWith('mcp '))).toBe(true);
    expect([...channels].some((channel) => channel.endsWith('events.jsonl'))).toBe(true);
    expect([...channels].some((channel) => /checks\/.*\.log$/.test(channel))).toBe(true);
  });

  test.each(Object.entries(canaries))('the %s canary appears nowhere in full', (_name, secret) => {
    const leaks = outputs.filter((output) => output.text.includes(secret)).map((output) => output.channel);
    expect(leaks).toEqual([]);
  });

  test('the secrets validator reports them masked', () => {
    const text = outputs.map((output) => output.text).join('\n');
    expect(text).toContain(`${canaries.github.slice(0, 4)}…`);
  });
});
