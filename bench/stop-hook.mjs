// Speed target of the stop hook: on an unchanged, already validated tree, `tollgate hook stop`
// answers in under 100 ms. Reported as the median wall time of the whole process, and as a ratio to `node -e 0`
// (Node's own start-up) measured in the same run.
//
//   npm run build && node bench/stop-hook.mjs [--json] [--runs N]
//
// It is a report: it prints the figures and exits 0 either way. The repository is a small real one under
// os.tmpdir(), with a private HOME and git config, validated once with `tollgate run` before timing.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { clearMachineStartupCost, exitWithUsageIfAsked, median, printResult } from './measure.mjs';
import { makeRepo, startupSandbox, stopPayloadFor } from './startup-repos.mjs';

exitWithUsageIfAsked(import.meta.url);

const TARGET_MS = 100;
const here = dirname(fileURLToPath(import.meta.url));
const dist = (path) => join(here, '..', 'dist', path);
const bin = join(here, '..', 'bin', 'tollgate.cjs');
const args = process.argv.slice(2);
const runsFlag = args.indexOf('--runs');
const runs = runsFlag === -1 ? 15 : Number(args[runsFlag + 1]);

const certificatesNote = clearMachineStartupCost();
if (certificatesNote) console.log(certificatesNote);
const { sandbox: dir, env } = startupSandbox('tollgate-bench-stop-');
const repo = makeRepo(dir, env, 'repo', 5);

/** `tollgate hook stop` through the installed entry point, as agents run it. */
function hookArgv() {
  return [bin, 'hook', 'stop'];
}

const run = spawnSync(process.execPath, [bin, 'run'], { cwd: repo, env, encoding: 'utf8' });
if (run.status !== 0) {
  console.log(`tollgate run failed (${run.status}): ${run.stderr.trim()}`);
  process.exit(0);
}
const payload = stopPayloadFor(repo);
const argv = hookArgv();
const time = (command, commandArgs, input) => {
  const started = performance.now();
  const result = spawnSync(command, commandArgs, { cwd: repo, env, input, encoding: 'utf8' });
  return { ms: performance.now() - started, stdout: result.stdout };
};
// Past git's racy-clean window, so that the first answer saves the fast path's stamp.
await new Promise((resolveSleep) => setTimeout(resolveSleep, 2100));
const check = time(process.execPath, argv, payload);
if (check.stdout.trim() !== '{}') {
  console.log(`expected the hook to allow ({}), got ${JSON.stringify(check.stdout)}`);
  process.exit(0);
}
// The hook alone, as a fast dispatch in bin.ts would run it (stopHookMain), without loading every command's module.
const direct = join(dir, 'direct.mjs');
writeFileSync(
  direct,
  `import { stopHookMain } from ${JSON.stringify(pathToFileURL(dist('integrations/hooks/stop-entry.js')).href)};\nprocess.exitCode = await stopHookMain();\n`,
);
const hook = [];
const hookDirect = [];
const baseline = [];
const loadBefore = loadavg()[0];
for (let index = 0; index < runs; index++) {
  baseline.push(time(process.execPath, ['-e', '0']).ms);
  hook.push(time(process.execPath, argv, payload).ms);
  hookDirect.push(time(process.execPath, [direct], payload).ms);
}
const loadAfter = loadavg()[0];
const hookMs = median(hook);
const directMs = median(hookDirect);
const nodeMs = median(baseline);
// Pair by pair: each run against the `node -e 0` started just before it.
const ratio = median(hook.map((ms, index) => ms / baseline[index]));
const directRatio = median(hookDirect.map((ms, index) => ms / baseline[index]));
const verdict = (ms) => (ms < TARGET_MS ? 'met' : 'NOT met');
printResult({
  name: 'stop-hook',
  line: `tollgate hook stop (validated, unchanged tree), median of ${runs}: via the CLI ${hookMs.toFixed(1)} ms (${ratio.toFixed(2)}x node -e 0, median of pairs; target < ${TARGET_MS} ms ${verdict(hookMs)}); direct entry ${directMs.toFixed(1)} ms (${directRatio.toFixed(2)}x, ${verdict(directMs)}); node -e 0 ${nodeMs.toFixed(1)} ms; load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
  values: {
    hookMs,
    directMs,
    nodeMs,
    ratio,
    directRatio,
    targetMs: TARGET_MS,
    runs,
    load: [loadBefore, loadAfter],
  },
});
rmSync(dir, { recursive: true, force: true });
