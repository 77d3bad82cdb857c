// A wall-clock timeline of one first run (`tollgate run --only checks,secrets` on the 20k-file repository
// bench/change-set.mjs generates, its .tollgate/ removed before each run): when each git process starts and ends,
// when the main thread is busy or waiting, when the check's process, any worker thread and each validator run, and
// where nothing the run waits for is on a core (idle gaps). Every git goes through a small C program first on PATH
// (bench/first-run-timeline-shim.c, compiled with `cc`) that logs git's own start, end and CPU on the monotonic clock;
// the run itself through a preload (bench/first-run-timeline-preload.cjs) that logs its children, workers, event-loop
// slices and stderr on the same clock; each validator's start and end come from the run's own event log.
//
//   npm run build && node bench/first-run-timeline.mjs [--runs N] [--repo DIR] [--bin OTHER/bin/tollgate.cjs] [--json]
//
// It times N runs (default 3) after a warm-up and prints the one with the median wall time. The repository is the one
// `node bench/change-set.mjs --only 20k` generated under os.tmpdir() (run that first), or --repo. It is a report: it
// prints the timeline and exits 0 (also, saying so, when there is no C compiler to build the shim); it fails only when
// it could not measure (no repository, a run that did not pass both validators on every changed file).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  changeSetBenchDir,
  exitWithUsageIfAsked,
  generatedRepo20k,
  median,
  printResult,
  privateGitEnv,
} from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => (args.indexOf(name) === -1 ? null : args[args.indexOf(name) + 1]);
const runs = Number(flag('--runs') ?? 3);
const bin = flag('--bin') ?? join(here, '..', 'bin', 'tollgate.cjs');
const benchDir = changeSetBenchDir;
const repo = generatedRepo20k('first-run-timeline', flag('--repo'));
const EXPECTED_FILES = 2_000;

const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-timeline-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const shimDir = join(work, 'shim');
spawnSync('mkdir', [shimDir]);
const compiled = spawnSync('cc', ['-O2', '-o', join(shimDir, 'git'), join(here, 'first-run-timeline-shim.c')], {
  encoding: 'utf8',
});
if (compiled.status !== 0) {
  // A timeline is a look, not a figure of the table: without a C compiler it is left out, and says so.
  console.log(
    `first-run-timeline: skipped, could not compile the git shim with cc: ${compiled.error?.message ?? compiled.stderr}`,
  );
  process.exit(0);
}

const home = join(benchDir, 'home');
const env = privateGitEnv(home);
delete env.NODE_EXTRA_CA_CERTS;
const realGit = spawnSync('sh', ['-c', 'command -v git'], { env, encoding: 'utf8' }).stdout.trim();
const gitLog = join(work, 'git.log');
const nodeLog = join(work, 'node.json');
const runEnv = {
  ...env,
  TOLLGATE_CACHE_DIR: join(work, 'cache'),
  TOLLGATE_USE_ADVISORIES: '0',
  TOLLGATE_USE_STATIC_ANALYSIS: '0',
  TOLLGATE_USE_CODE_REVIEW: '0',
};
const timedEnv = {
  ...runEnv,
  PATH: `${shimDir}:${env.PATH}`,
  TIMELINE_REAL_GIT: realGit,
  TIMELINE_GIT_LOG: gitLog,
  TIMELINE_NODE_LOG: nodeLog,
};

function firstRun(runEnvironment, preload) {
  rmSync(join(repo, '.tollgate'), { recursive: true, force: true });
  writeFileSync(gitLog, '');
  const nodeArgs = [...(preload ? ['-r', join(here, 'first-run-timeline-preload.cjs')] : []), bin];
  const result = spawnSync(process.execPath, [...nodeArgs, 'run', '--only', 'checks,secrets', '--format', 'json'], {
    cwd: repo,
    env: runEnvironment,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const report = JSON.parse(result.stdout);
  const statuses = (report.tools ?? []).map((tool) => `${tool.name}:${tool.status}`).sort();
  if (statuses.join(' ') !== 'checks:passed secrets:passed' || report.files?.length !== EXPECTED_FILES)
    throw new Error(`a first run should pass both validators on ${EXPECTED_FILES} files, got ${statuses.join(' ')}`);
  return report;
}

/** What git was asked to do, in a few words: the subcommand and the arguments that tell one call from another. */
function gitLabel(argv) {
  const words = argv.filter((word) => !word.startsWith('-c') && !/^[a-z.]+=/.test(word));
  const at = words.findIndex((word) => /^[a-z][a-z-]*$/.test(word));
  const sub = words[at] ?? '?';
  const rest = words.slice(at + 1).filter((word) => word !== '--');
  if (sub === 'diff-index') {
    const kind = rest.includes('-p')
      ? rest.includes('-M')
        ? 'rename patches'
        : 'patch'
      : rest.includes('-M')
        ? 'renames'
        : 'paths';
    return `diff-index (${kind})`;
  }
  if (sub === 'config') return `config ${rest.filter((word) => !word.startsWith('-')).join(' ')}`.slice(0, 40);
  return `${sub} ${rest
    .filter((word) => !word.startsWith('-') || word.startsWith('--show'))
    .slice(0, 3)
    .join(' ')}`
    .trim()
    .slice(0, 40);
}

/** One run's steps on one time axis (ms since the process started). */
function timelineOf(report) {
  const node = JSON.parse(readFileSync(nodeLog, 'utf8'));
  const t0 = node.processStart;
  const ms = (ns) => (ns - t0) / 1e6;
  const gits = readFileSync(gitLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, user, system, status, ...argv] = line.split('\t');
      return {
        start: ms(Number(start)),
        end: ms(Number(end)),
        cpuMs: (Number(user) + Number(system)) / 1000,
        status: Number(status),
        argv,
      };
    });
  const steps = [];
  // Each git as Node started it: from the spawn call (the parent's fork) to the exit Node saw; git's own part inside.
  const children = node.children.filter((child) => child.exited !== undefined);
  const unmatched = [...gits];
  for (const child of children) {
    const isGit = /(^|\/)git$/.test(child.argv[0]);
    const own = isGit
      ? unmatched.find(
          (git) => git.start >= ms(child.called) - 1 && git.argv.join(' ') === child.argv.slice(1).join(' '),
        )
      : undefined;
    if (own) unmatched.splice(unmatched.indexOf(own), 1);
    steps.push({
      kind: isGit ? 'git' : 'child',
      label: isGit ? `git ${gitLabel(child.argv.slice(1))}` : `${child.argv.join(' ')}`.slice(0, 48),
      start: ms(child.called),
      spawned: ms(child.returned),
      end: ms(child.exited),
      ...(own ? { ownStart: own.start, ownEnd: own.end, cpuMs: own.cpuMs } : {}),
    });
  }
  for (const git of unmatched)
    steps.push({
      kind: 'git',
      label: `git ${gitLabel(git.argv)} (not Node's child)`,
      start: git.start,
      end: git.end,
      ownStart: git.start,
      ownEnd: git.end,
      cpuMs: git.cpuMs,
    });
  for (const worker of node.workers)
    steps.push({
      kind: 'worker',
      label: 'worker thread',
      start: ms(worker.created),
      end: ms(worker.message ?? worker.exited ?? node.exit),
    });
  // The validators, from the run's own event log (Date.now() timestamps, placed on the monotonic clock).
  const events = readEvents(report.runId);
  const startedAt = new Map();
  const epochToMs = (iso) => (Date.parse(iso) - node.epochOffsetMs) * 1e6;
  for (const event of events) {
    const name = event.data?.toolName;
    if (event.type === 'tool.execution_start') startedAt.set(name, ms(epochToMs(event.timestamp)));
    if (event.type === 'tool.execution_complete' && startedAt.has(name))
      steps.push({
        kind: 'validator',
        label: `validator ${name}`,
        start: startedAt.get(name),
        end: ms(epochToMs(event.timestamp)),
      });
  }
  steps.sort((a, b) => a.start - b.start);
  const exit = ms(node.exit);
  // Main thread: busy where a slice's idle time is less than half of it; merged into segments.
  const busy = [];
  for (const [from, to, idleMs] of node.loop) {
    const start = ms(from);
    const end = ms(to);
    const busyMs = end - start - idleMs;
    if (busyMs < (end - start) / 2) continue;
    const last = busy[busy.length - 1];
    if (last && start - last.end < 0.5) last.end = end;
    else busy.push({ start, end });
  }
  const busyMs = node.loop.reduce((sum, [from, to, idleMs]) => sum + Math.max(0, (to - from) / 1e6 - idleMs), 0);
  return {
    steps,
    busy,
    busyMs,
    exit,
    preload: ms(node.preload),
    stderr: node.stderr.map((line) => ({ at: ms(line.at), text: line.text.trim() })),
  };
}

function readEvents(runId) {
  const runsDir = join(repo, '.tollgate', 'runs');
  const dirs = existsSync(runsDir) ? readdirSync(runsDir) : [];
  const dir = dirs.find((name) => name === runId) ?? dirs[0];
  if (!dir || !existsSync(join(runsDir, dir, 'events.jsonl'))) return [];
  return readFileSync(join(runsDir, dir, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Total length of the union of intervals. */
function unionMs(intervals) {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const { start, end } of sorted) {
    if (start > to) {
      if (to > from) total += to - from;
      from = start;
      to = end;
    } else to = Math.max(to, end);
  }
  if (to > from) total += to - from;
  return total;
}

/** Gaps of at least `minMs` in [from, to] covered by none of the intervals. */
function gapsOf(intervals, from, to, minMs) {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const gaps = [];
  let at = from;
  for (const { start, end } of sorted) {
    if (start - at >= minMs) gaps.push({ start: at, end: start });
    at = Math.max(at, end);
  }
  if (to - at >= minMs) gaps.push({ start: at, end: to });
  return gaps;
}

function print(timeline, wallMs) {
  const { steps, busy, busyMs, exit } = timeline;
  const width = 60;
  const bar = (start, end) => {
    const a = Math.max(0, Math.floor((start / exit) * width));
    const b = Math.max(a + 1, Math.ceil((end / exit) * width));
    return `${' '.repeat(a)}${'#'.repeat(Math.min(b, width) - a)}`.padEnd(width);
  };
  const f = (value) => value.toFixed(0).padStart(5);
  console.log(
    `one first run, ${wallMs.toFixed(0)} ms wall (process start to exit ${exit.toFixed(0)} ms); ms since the process started:`,
  );
  console.log(`${'step'.padEnd(44)} start   end   dur  git CPU  |${'timeline'.padEnd(width)}|`);
  console.log(
    `${'main thread busy (event loop)'.padEnd(44)} ${f(0)} ${f(exit)} ${f(busyMs)}           |${busyBar(busy, exit, width)}|`,
  );
  for (const step of steps) {
    const own = step.ownStart !== undefined ? ` (git ${step.ownStart.toFixed(0)}-${step.ownEnd.toFixed(0)})` : '';
    const cpu = step.cpuMs !== undefined ? `${f(step.cpuMs)} ms` : '        ';
    console.log(
      `${step.label.padEnd(44).slice(0, 44)} ${f(step.start)} ${f(step.end)} ${f(step.end - step.start)} ${cpu} |${bar(step.start, step.end)}|${own}`,
    );
  }
  // Overlap: how much of the wall had git (or the check) running beside the main thread's work, and how much neither.
  const external = steps.filter((step) => step.kind === 'git' || step.kind === 'child' || step.kind === 'worker');
  const externalMs = unionMs(external);
  const both = unionMs(
    busy.flatMap((b) => external.map((s) => ({ start: Math.max(b.start, s.start), end: Math.min(b.end, s.end) }))),
  );
  const gitSum = external.reduce((sum, step) => sum + (step.end - step.start), 0);
  const gaps = gapsOf([...busy, ...external], timeline.preload, exit, 2);
  const idleMs = gaps.reduce((sum, gap) => sum + gap.end - gap.start, 0);
  console.log(
    `main thread busy ${busyMs.toFixed(0)} ms; a child process or worker running ${externalMs.toFixed(0)} ms (their lengths add up to ${gitSum.toFixed(0)}: ${(gitSum - externalMs).toFixed(0)} ms ran beside another); main thread and a child at once ${both.toFixed(0)} ms; start-up before the preload ${timeline.preload.toFixed(0)} ms`,
  );
  console.log(
    `idle gaps (no main-thread work, no child, no worker, >= 2 ms): ${gaps.length}, ${idleMs.toFixed(0)} ms in all${gaps.length ? `: ${gaps.map((gap) => `${gap.start.toFixed(0)}-${gap.end.toFixed(0)}`).join(', ')}` : ''}`,
  );
  return { busyMs, externalMs, overlapMs: both, idleMs, gaps, gitSum };
}

function busyBar(busy, exit, width) {
  const cells = new Array(width).fill(' ');
  for (const { start, end } of busy) {
    const a = Math.floor((start / exit) * width);
    const b = Math.max(a + 1, Math.ceil((end / exit) * width));
    for (let i = a; i < Math.min(b, width); i += 1) cells[i] = '#';
  }
  return cells.join('');
}

const loadBefore = loadavg()[0];
firstRun(runEnv, false); // warm-up: page cache, git's index refresh, this build's code cache for `run --only`
const samples = [];
for (let i = 0; i < runs; i += 1) {
  const started = process.hrtime.bigint();
  const report = firstRun(timedEnv, true);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  samples.push({ wallMs, timeline: timelineOf(report) });
}
const loadAfter = loadavg()[0];
const middle = median(samples.map((sample) => sample.wallMs));
const chosen = samples.find((sample) => sample.wallMs === middle) ?? samples[0];
const summary = print(chosen.timeline, chosen.wallMs);
printResult({
  name: 'first-run-timeline',
  line: `${runs} runs, walls ${samples.map((sample) => sample.wallMs.toFixed(0)).join(', ')} ms, the median shown; load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
  values: { runs, wallMs: chosen.wallMs, load: [loadBefore, loadAfter], ...summary, steps: chosen.timeline.steps },
});
