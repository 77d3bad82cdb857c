#!/usr/bin/env node
// A stand-in for an agent CLI (any adapter's `bin`), put first on PATH by tests through a shell script that
// setupFakeAgents (fake-agents.ts) writes.
// It reads its scenario from the JSON file named by TOLLGATE_FAKE_AGENTS, logs every call (argv, cwd, stdin, the
// environment variables tollgate sets or removes) to the scenario's `log`, checks the argv/cwd/stdin it was promised,
// and answers with the recorded output. A mismatch exits 97 with both sides on stderr.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [bin, ...argv] = process.argv.slice(2);
const scenarioPath = process.env.TOLLGATE_FAKE_AGENTS;
if (!scenarioPath) {
  process.stderr.write(`fake ${bin}: TOLLGATE_FAKE_AGENTS is not set\n`);
  process.exit(98);
}
const scenario = JSON.parse(readFileSync(scenarioPath, 'utf8'));
const agent = scenario.agents?.[bin] ?? {};

const stdin = await readStdin();
const call = classify();
const record = {
  bin,
  call,
  argv,
  cwd: process.cwd(),
  stdin,
  env: { TOLLGATE_ACTIVE: process.env.TOLLGATE_ACTIVE ?? null, CLAUDECODE: process.env.CLAUDECODE ?? null },
  // Set only when tollgate's GitHub credentials reached the agent's environment (never their value).
  githubTokenSet: process.env.GITHUB_TOKEN === undefined && process.env.GH_TOKEN === undefined ? undefined : true,
  files: privateFiles(),
};
if (scenario.log) appendFileSync(scenario.log, `${JSON.stringify(record)}\n`);

if (call === 'help') finish(agent.help ?? { stdoutFile: agent.helpFile, exit: 0 });
else if (call === 'version') finish({ stdout: `${agent.version ?? '0.0.0'}\n`, exit: 0 });
else if (call === 'auth') finish(agent.auth ?? { stdout: '', exit: 0 });
else review();

function classify() {
  const joined = argv.join(' ');
  // `--help` and subcommand help (`codex exec --help`) answer with the recorded help text.
  if (argv.at(-1) === '--help' && argv.length <= 2) return 'help';
  if (joined === '--version') return 'version';
  if (agent.authArgs && joined === agent.authArgs.join(' ')) return 'auth';
  return 'review';
}

function review() {
  const step = pickStep();
  const expected = step.expectArgv ?? agent.expectArgv;
  if (expected && JSON.stringify(expected) !== JSON.stringify(argv)) {
    fail(`argv mismatch\nexpected: ${JSON.stringify(expected)}\ngot:      ${JSON.stringify(argv)}`);
  }
  const cwd = step.expectCwd ?? agent.expectCwd;
  if (cwd && cwd !== process.cwd()) fail(`cwd mismatch: expected ${cwd}, got ${process.cwd()}`);
  for (const text of step.expectStdinIncludes ?? agent.expectStdinIncludes ?? []) {
    if (!stdin.includes(text)) fail(`stdin does not include ${JSON.stringify(text)}`);
  }
  if (step.writeFile) writeFileSync(join(process.cwd(), step.writeFile), 'written by a reviewer\n');
  // An analysis agent's work: files in its workspace (the cwd); `{{cwd}}` in a content is replaced by the cwd.
  for (const [path, content] of Object.entries(step.writeFiles ?? {})) {
    const target = join(process.cwd(), path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content.replaceAll('{{cwd}}', process.cwd()));
  }
  if (step.answer !== undefined) {
    const index = argv.indexOf('-o');
    if (index !== -1) writeFileSync(argv[index + 1], step.answer);
  }
  if (step.hang) {
    // A grandchild too: the timeout must take the whole process group down.
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    if (scenario.log)
      appendFileSync(scenario.log, `${JSON.stringify({ bin, call: 'hang', pid: process.pid, childPid: child.pid })}\n`);
    setInterval(() => {}, 1000);
    return;
  }
  if (step.hugeOutputBytes) {
    const chunk = 'x'.repeat(64 * 1024);
    let left = step.hugeOutputBytes;
    const write = () => {
      while (left > 0) {
        left -= chunk.length;
        if (!process.stdout.write(chunk)) return process.stdout.once('drain', write);
      }
      process.exit(step.exit ?? 0);
    };
    write();
    return;
  }
  finish(step);
}

/**
 * The step to play: with `routes`, the first route whose `when` text is in the prompt (stdin or argv) picks the
 * sequence, with its own counter (concurrent calls of different routes do not disturb each other's order); else the
 * agent's `reviews` sequence, else its one `review`.
 */
function pickStep() {
  if (agent.routes) {
    const prompt = `${stdin}\n${argv.join(' ')}`;
    const index = agent.routes.findIndex((route) => prompt.includes(route.when));
    if (index !== -1) {
      const steps = agent.routes[index].steps;
      return steps[Math.min(nextCount(`route${index}`), steps.length - 1)];
    }
  }
  const sequence = agent.reviews ?? [agent.review ?? {}];
  return sequence[Math.min(nextCount(), sequence.length - 1)];
}

function finish(step) {
  const stdout = step.stdoutFile ? readFileSync(step.stdoutFile, 'utf8') : (step.stdout ?? '');
  const stderr = step.stderrFile ? readFileSync(step.stderrFile, 'utf8') : (step.stderr ?? '');
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.stdout.end(() => process.exit(step.exit ?? 0));
}

function fail(message) {
  process.stderr.write(`fake ${bin}: ${message}\n`);
  process.exit(97);
}

function nextCount(key = 'count') {
  if (!scenario.log) return 0;
  const counter = `${scenario.log}.${bin}.${key}`;
  let count = 0;
  try {
    count = Number(readFileSync(counter, 'utf8')) || 0;
  } catch {}
  writeFileSync(counter, String(count + 1));
  return count;
}

/** Modes of the private files next to a path argument (Codex's --output-schema): the prompt dir must be private. */
function privateFiles() {
  const index = argv.indexOf('--output-schema');
  if (index === -1) return undefined;
  const dir = dirname(argv[index + 1]);
  const mode = (path) => (statSync(path).mode & 0o777).toString(8);
  try {
    return { dir: mode(dir), prompt: mode(join(dir, 'prompt.txt')), schema: mode(argv[index + 1]) };
  } catch (error) {
    return { error: String(error) };
  }
}

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(''));
  });
}
