#!/usr/bin/env node
// Start-up per command: `tollgate --version`, the stop hook on a validated, unchanged tree, `tollgate run` on a
// repository with no changes, and the repeat `tollgate run` and stop hook on a change committed but not pushed (HEAD
// ahead of its upstream) that a passing run validated (the stop hook's stdin a socket, as Node-based agents hand it,
// and on Linux a pipe too), each as a whole process through bin/tollgate.cjs, against `node -e 0` (Node's own
// start-up) measured in the same run, pair by pair: node, then the command, in turn, so a machine whose speed drifts
// moves both. Target: at most 1.5x `node -e 0` for each. Prints the load average too: on a shared machine the ratios
// hold better than the milliseconds. Last, the whole-process change set (`tollgate run` with every validator off, 5
// changed files) against `git status --porcelain && git diff HEAD --stat`, also in pairs.
//
//   npm run build && node bench/startup.mjs [--json] [--runs N] [--against OTHER/bin/tollgate.cjs]
//
// --against also times another build of tollgate (an older checkout) in the same pairs, for a before/after figure.
//
// It is a report: it prints the figures and exits 0 either way. The repositories are small real ones under
// os.tmpdir(), with a private HOME and git config.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearMachineStartupCost, exitWithUsageIfAsked, median, printResult } from './measure.mjs';
import {
  childrenCpuMs,
  makeCommittedChangeRepo as makeCommittedChangeRepoIn,
  makeRepo as makeRepoIn,
  startupSandbox,
  stopPayloadFor,
} from './startup-repos.mjs';

exitWithUsageIfAsked(import.meta.url);

const TARGET_RATIO = 1.5;
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'tollgate.cjs');
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 15 : Number(args[runsFlag + 1]);
const againstFlag = args.indexOf('--against');
const against = againstFlag === -1 ? null : args[againstFlag + 1];

const certificatesNote = clearMachineStartupCost();
if (certificatesNote) console.log(certificatesNote);
const { sandbox, env } = startupSandbox('tollgate-bench-startup-');
const makeRepo = (name, changed) => makeRepoIn(sandbox, env, name, changed);
const makeCommittedChangeRepo = (name) => makeCommittedChangeRepoIn(sandbox, env, name);

/**
 * One process, timed. `input` is written to its stdin: a socket, as Node-based agents hand it, or with `{ pipe }` a
 * FIFO (a shell's `|`, agents written in Rust) that holds the payload and whose writer has closed.
 */
function time(command, commandArgs, cwd, input) {
  const stdin = typeof input === 'object' ? filledFifo(input.pipe) : undefined;
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, {
    cwd,
    env,
    encoding: 'utf8',
    ...(stdin === undefined ? { input } : { stdio: [stdin, 'pipe', 'pipe'] }),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (stdin !== undefined) closeSync(stdin);
  return { ms, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, result };
}

let fifoPath;
/** The read end of a FIFO holding `text`, its writer closed. */
function filledFifo(text) {
  if (!fifoPath) {
    fifoPath = join(sandbox, 'stdin.fifo');
    spawnSync('mkfifo', [fifoPath]);
  }
  const reader = openSync(fifoPath, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifoPath, constants.O_WRONLY);
  writeSync(writer, text);
  closeSync(writer);
  return reader;
}

/** Sum of `b`'s CPU over sum of `a`'s, or null without CPU figures. */
function cpuRatio(a, b) {
  const sum = (samples) =>
    samples.reduce((total, sample) => (total === null || sample.cpuMs === null ? null : total + sample.cpuMs), 0);
  const [over, under] = [sum(b), sum(a)];
  return over === null || !under ? null : over / under;
}

function mustPass(what, { result }, expectStdout) {
  const ok = result.status === 0 && (expectStdout === undefined || result.stdout.trim() === expectStdout);
  if (!ok) {
    console.log(`${what}: exit ${result.status}, stdout ${JSON.stringify(result.stdout.slice(0, 200))}`);
    console.log(result.stderr.trim());
    process.exit(0);
  }
}

// Each build gets repositories of its own: two builds that save their fast paths' stamps in the same `.tollgate/`
// would overwrite each other's, and each would then measure its full path.
const clean = makeRepo('clean', 0);
const edited = makeRepo('edited', 5);
const committed = makeCommittedChangeRepo('committed');
const otherClean = against ? makeRepo('other-clean', 0) : null;
const otherEdited = against ? makeRepo('other-edited', 5) : null;
const otherCommitted = against ? makeCommittedChangeRepo('other-committed') : null;
for (const [build, cleanRepo, editedRepo, committedRepo] of [
  [bin, clean, edited, committed],
  ...(against ? [[against, otherClean, otherEdited, otherCommitted]] : []),
]) {
  mustPass('tollgate run (no changes)', time(process.execPath, [build, 'run'], cleanRepo));
  mustPass('tollgate run (5 changed files)', time(process.execPath, [build, 'run'], editedRepo));
  // The pass that validates the committed change; the repeats below skip every validator.
  mustPass('tollgate run (committed change)', time(process.execPath, [build, 'run'], committedRepo));
}
// Past git's racy-clean window, so that the next answers save the fast paths' stamps.
await new Promise((resolveSleep) => setTimeout(resolveSleep, 2100));
const payloadFor = stopPayloadFor;
const payload = payloadFor(edited);
mustPass('tollgate hook stop', time(process.execPath, [bin, 'hook', 'stop'], edited, payload), '{}');
if (against) time(process.execPath, [against, 'hook', 'stop'], otherEdited, payloadFor(otherEdited));

const commands = [
  { name: 'version', label: 'tollgate --version', argv: [bin, '--version'], cwd: clean, otherCwd: otherClean },
  {
    name: 'stopHook',
    label: 'tollgate hook stop (validated, unchanged)',
    argv: [bin, 'hook', 'stop'],
    cwd: edited,
    input: payload,
    otherCwd: otherEdited,
    otherInput: otherEdited && payloadFor(otherEdited),
  },
  // Three runs before the pairs: the first leaves a saved report, the second its stamp, the third is the fast path.
  { name: 'runNoChanges', label: 'tollgate run (no changes)', argv: [bin, 'run'], cwd: clean, otherCwd: otherClean },
  // The usual state of an agent's work: committed, not pushed, validated. The pass above left a note, the first
  // warm-up run (every validator skipped) saves its stamp, and the pairs are answered from it.
  {
    name: 'runCommittedChange',
    label: 'tollgate run (committed, unpushed, validated change: repeat)',
    argv: [bin, 'run'],
    cwd: committed,
    otherCwd: otherCommitted,
  },
  {
    name: 'stopHookCommittedChange',
    label: 'tollgate hook stop (committed, unpushed, validated change)',
    argv: [bin, 'hook', 'stop'],
    cwd: committed,
    input: payloadFor(committed),
    otherCwd: otherCommitted,
    otherInput: otherCommitted && payloadFor(otherCommitted),
  },
  ...(process.platform === 'linux'
    ? [
        {
          name: 'stopHookCommittedChangePipe',
          label: 'tollgate hook stop (committed, unpushed, validated change; stdin a pipe)',
          argv: [bin, 'hook', 'stop'],
          cwd: committed,
          input: { pipe: payloadFor(committed) },
          otherCwd: otherCommitted,
          otherInput: otherCommitted && { pipe: payloadFor(otherCommitted) },
        },
      ]
    : []),
];
const loadBefore = loadavg()[0];
const values = { runs, targetRatio: TARGET_RATIO };
for (const command of commands) {
  const other = against ? [against, ...command.argv.slice(1)] : null;
  const otherInput = command.otherInput ?? command.input;
  // Warm the file cache and the code cache (and, for a run, save the fast path's stamp).
  for (let warm = 0; warm < 2; warm++) {
    time(process.execPath, command.argv, command.cwd, command.input);
    if (other) time(process.execPath, other, command.otherCwd, otherInput);
  }
  const node = [];
  const ours = [];
  const others = [];
  for (let index = 0; index < runs; index++) {
    node.push(time(process.execPath, ['-e', '0'], command.cwd));
    ours.push(time(process.execPath, command.argv, command.cwd, command.input));
    if (other) others.push(time(process.execPath, other, command.otherCwd, otherInput));
  }
  const ratio = median(ours.map((sample, index) => sample.ms / node[index].ms));
  const cpu = cpuRatio(node, ours);
  const cpuText = cpu === null ? '' : `, CPU ${cpu.toFixed(2)}x`;
  const otherRatio = other ? median(others.map((sample, index) => sample.ms / node[index].ms)) : null;
  const otherCpu = other ? cpuRatio(node, others) : null;
  const otherText = other
    ? `; --against: ${otherRatio.toFixed(2)}x${otherCpu === null ? '' : `, CPU ${otherCpu.toFixed(2)}x`}`
    : '';
  const ms = median(ours.map((sample) => sample.ms));
  const nodeMs = median(node.map((sample) => sample.ms));
  console.log(
    `${command.label}: ${ms.toFixed(1)} ms, ${ratio.toFixed(2)}x node -e 0${cpuText} (${nodeMs.toFixed(1)} ms; median of ${runs} pairs; target <= ${TARGET_RATIO}x ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'})${otherText}`,
  );
  values[command.name] = {
    ms,
    nodeMs,
    ratio,
    cpuRatio: cpu,
    ...(other ? { againstRatio: otherRatio, againstCpuRatio: otherCpu } : {}),
  };
}
// The whole process of building a change set (validators switched off) against git's own look at the same tree, pair by
// pair: what a user waits for beyond git itself.
const validatorsOff = Object.fromEntries(
  ['CHECKS', 'SECRETS', 'ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW'].map((name) => [`TOLLGATE_USE_${name}`, '0']),
);
const gitLook = ['-c', 'git status --porcelain >/dev/null && git diff HEAD --stat >/dev/null'];
{
  const changeSetEnv = { ...env, ...validatorsOff };
  const timeChangeSet = () => {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [bin, 'run'], { cwd: edited, env: changeSetEnv, encoding: 'utf8' });
    if (result.status !== 0) console.log(`tollgate run (validators off): exit ${result.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  timeChangeSet();
  const ratios = [];
  const ours = [];
  const gits = [];
  for (let index = 0; index < runs; index++) {
    const gitMs = time('sh', gitLook, edited).ms;
    const ms = timeChangeSet();
    gits.push(gitMs);
    ours.push(ms);
    ratios.push(ms / gitMs);
  }
  const ratio = median(ratios);
  console.log(
    `tollgate run, validators off (5 changed files, whole process): ${median(ours).toFixed(1)} ms, ${ratio.toFixed(2)}x \`git status --porcelain && git diff HEAD --stat\` (${median(gits).toFixed(1)} ms; median of ${runs} pairs)`,
  );
  values.changeSetWholeProcess = { ms: median(ours), gitMs: median(gits), ratio };
}
const loadAfter = loadavg()[0];
values.load = [loadBefore, loadAfter];
printResult({
  name: 'startup',
  line: `load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${process.platform} with Node ${process.version}`,
  values,
});
rmSync(sandbox, { recursive: true, force: true });
