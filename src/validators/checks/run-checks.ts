import { createWriteStream, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import picomatch from 'picomatch';
import { formatDuration } from '../../core/config/units.js';
import { errorMessage, TollgateError } from '../../core/errors.js';
import { type Finding, makeFinding } from '../../core/finding.js';
import { type ChangeEnvironment, changeEnvironment } from '../../core/pipeline/change-environment.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import { redactFileInPlace } from '../../secrets/redact.js';
import type { Check, ChecksOptions } from './options.js';
import { OutputTail } from './output-tail.js';

export type CheckOutcome =
  | { name: string; state: 'passed'; exitCode: 0; durationMs: number; log: string }
  | {
      name: string;
      state: 'failed';
      exitCode: number | null;
      signal: string | null;
      durationMs: number;
      log: string;
      tail: string;
      /** Identifies this failure among others of the same check (see OutputTail.signature). */
      signature: string;
    }
  | { name: string; state: 'timed_out'; durationMs: number; timeoutMs: number; log: string; tail: string }
  | { name: string; state: 'not_started'; reason: string }
  | { name: string; state: 'not_applicable'; reason: string }
  | { name: string; state: 'interrupted'; durationMs: number; log: string };

/**
 * What a failing check's finding keeps of its output (reports cut further, to `output.maxOutputLines`): the last 200
 * lines within 64 KiB, and up to 20 failure lines from anywhere before them.
 */
const TAIL = { lines: 200, bytes: 64 * 1024, failureLines: 20 } as const;

/** The checks whose `paths` globs match a changed path (a check without `paths` always applies). */
export function selectChecks(
  checks: readonly Check[],
  changedPaths: readonly string[],
): { run: Check[]; skipped: Check[] } {
  const run: Check[] = [];
  const skipped: Check[] = [];
  for (const check of checks) {
    if (!check.paths || check.paths.length === 0) {
      run.push(check);
      continue;
    }
    const matches = picomatch(check.paths, { dot: true });
    (changedPaths.some((path) => matches(path)) ? run : skipped).push(check);
  }
  return { run, skipped };
}

export async function runChecks(ctx: ToolContext<ChecksOptions, unknown>): Promise<ToolResult> {
  const checks = ctx.options;
  if (checks.length === 0) {
    return result(
      'passed',
      'no checks configured; add `checks:` to tollgate.config.yaml to run your tests and linters',
    );
  }
  const changedPaths = ctx.changeSet.files.flatMap((file) => (file.oldPath ? [file.path, file.oldPath] : [file.path]));
  const { run, skipped } = selectChecks(checks, changedPaths);
  const limit = pLimit(ctx.concurrency);
  const survivors = new Set<string>();
  const change = await checkEnvironment(ctx);
  const shared = await Promise.all(
    run.filter((check) => !check.exclusive).map((check) => limit(() => runOneCheck(check, ctx, change, survivors))),
  );
  // An exclusive check runs alone: after the other checks, once every other validator has settled, one at a time.
  const exclusive: CheckOutcome[] = [];
  const alone = run.filter((check) => check.exclusive);
  if (alone.length > 0) {
    ctx.progress(`waiting to run ${alone.map((check) => check.name).join(', ')} alone (exclusive)`);
    await ctx.whenAlone?.();
  }
  for (const check of alone) exclusive.push(await runOneCheck(check, ctx, change, survivors));
  const outcomes: CheckOutcome[] = [
    ...skipped.map((check) => ({
      name: check.name,
      state: 'not_applicable' as const,
      reason: 'no changed file matches `paths`',
    })),
    ...shared,
    ...exclusive,
  ];
  const summary = summarize(outcomes, checks);
  if (survivors.size === 0) return summary;
  return {
    ...summary,
    summary: `${summary.summary}; ${[...survivors].join(', ')} left a detached process running (outside its process group, beyond tollgate's reach): stop it yourself`,
    details: { ...summary.details, detachedSurvivors: [...survivors] },
  };
}

/**
 * What every check learns about the change: `TOLLGATE_BASE` (the base commit, empty in a repository without commits)
 * and `TOLLGATE_CHANGED_FILES`, the path of a file listing the changed paths that exist in the change's tree
 * (deletions left out), each ended by a NUL byte, as `git diff -z` and `xargs -0` read them; a list of any length fits.
 */
function checkEnvironment(ctx: ToolContext<ChecksOptions, unknown>): Promise<ChangeEnvironment> {
  const paths = ctx.changeSet.files.filter((file) => file.status !== 'deleted').map((file) => file.path);
  return changeEnvironment(join(ctx.artifactsDir, 'changed-files.nul'), ctx.changeSet.base.commit, paths);
}

async function runOneCheck(
  check: Check,
  ctx: ToolContext<ChecksOptions, unknown>,
  change: ChangeEnvironment,
  survivors: Set<string>,
): Promise<CheckOutcome> {
  if (ctx.signal.aborted)
    return { name: check.name, state: 'not_started', reason: 'the run was stopped before it started' };
  const cwd = resolve(ctx.repoRoot, check.cwd);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    return { name: check.name, state: 'not_started', reason: `cwd ${JSON.stringify(check.cwd)} is not a directory` };
  }
  const log = join(ctx.artifactsDir, `${safeFileName(check.name)}.log`);
  const checkLog = openCheckLog(log, `${check.name}: could not write its log ${log.slice(ctx.repoRoot.length + 1)}`);
  const excerpt = new OutputTail(TAIL);
  const timeoutMs = Math.min(check.timeout, Math.max(1, ctx.budget.remainingMs()));
  ctx.progress(`${check.name}: running \`${check.run}\``);
  const outcome = await ctx.runProcess('sh', ['-c', check.run], {
    cwd,
    env: { ...ctx.env, ...change, ...check.env, TOLLGATE_CHECK: check.name },
    timeoutMs,
    maxOutputBytes: 256 * 1024,
    onOutput: (from, chunk) => {
      checkLog.write(chunk);
      excerpt.push(chunk, from);
    },
  });
  await checkLog.close();
  // The full log stays in the run folder: mask anything in it that looks like a credential, as in every other output.
  await redactFileInPlace(log);
  const tail = excerpt.render();
  if (outcome.detachedSurvivor) {
    survivors.add(check.name);
    ctx.progress(
      `${check.name}: a process it started outside its process group (setsid, a daemon) still holds its output and may still run; tollgate stopped waiting for it`,
    );
  }
  const relativeLog = log.slice(ctx.repoRoot.length + 1);
  if (outcome.spawnError) {
    return { name: check.name, state: 'not_started', reason: `could not start sh: ${outcome.spawnError.message}` };
  }
  if (outcome.timedOut && timeoutMs < check.timeout) {
    ctx.progress(`${check.name}: stopped, validation.timeout ran out`);
    return { name: check.name, state: 'interrupted', durationMs: outcome.durationMs, log: relativeLog };
  }
  if (outcome.timedOut) {
    ctx.progress(`${check.name}: timed out after ${formatDuration(check.timeout)}`);
    return {
      name: check.name,
      state: 'timed_out',
      durationMs: outcome.durationMs,
      timeoutMs: check.timeout,
      log: relativeLog,
      tail,
    };
  }
  if (outcome.aborted)
    return { name: check.name, state: 'interrupted', durationMs: outcome.durationMs, log: relativeLog };
  if (outcome.exitCode === 0) {
    ctx.progress(`${check.name}: passed in ${formatDuration(outcome.durationMs)}`);
    return { name: check.name, state: 'passed', exitCode: 0, durationMs: outcome.durationMs, log: relativeLog };
  }
  ctx.progress(`${check.name}: failed (exit ${outcome.exitCode ?? outcome.signal})`);
  return {
    name: check.name,
    state: 'failed',
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    durationMs: outcome.durationMs,
    log: relativeLog,
    tail,
    signature: excerpt.signature(),
  };
}

/**
 * A check's log file. A full disk must not crash the run (an unhandled 'error' event would): the check runs to its
 * end, and `close` then throws one io error naming the log.
 */
function openCheckLog(path: string, what: string): { write(chunk: Buffer): void; close(): Promise<void> } {
  const stream = createWriteStream(path, { mode: 0o600 });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure ??= error;
  });
  return {
    write: (chunk) => {
      if (!failure) stream.write(chunk);
    },
    close: async () => {
      await new Promise<void>((done) => {
        if (stream.destroyed) done();
        else stream.end(() => done()).once('close', () => done());
      });
      if (failure) throw new TollgateError('io', `${what}: ${errorMessage(failure)}`);
    },
  };
}

function summarize(outcomes: readonly CheckOutcome[], checks: readonly Check[]): ToolResult {
  const byName = new Map(checks.map((check) => [check.name, check]));
  const findings: Finding[] = [];
  for (const outcome of outcomes) {
    const check = byName.get(outcome.name)!;
    const finding = findingFor(outcome, check);
    if (finding) findings.push(finding);
  }
  const count = (state: CheckOutcome['state']) => outcomes.filter((outcome) => outcome.state === state).length;
  const ran = outcomes.length - count('not_applicable');
  // The tails already sit in the findings; details keep the structured part.
  const details = { checks: outcomes.map((outcome) => ({ ...outcome, tail: undefined, signature: undefined })) };
  if (count('interrupted') > 0) {
    return result(
      'timeout',
      `validation.timeout ran out while ${count('interrupted')} check(s) were running; do not rerun: raise \`validation.timeout\` or give slow checks \`paths\``,
      findings,
      details,
    );
  }
  const notApplicable = count('not_applicable');
  const suffix = notApplicable > 0 ? ` (${notApplicable} skipped: no changed file matches their \`paths\`)` : '';
  if (findings.length > 0) {
    const failed = count('failed') + count('timed_out') + count('not_started');
    return result(
      'failed',
      `${failed} of ${ran} check(s) failed${suffix}; fix them and run tollgate again`,
      findings,
      details,
    );
  }
  if (ran === 0) return result('passed', `no check applies to the changed files${suffix}`, [], details);
  return result('passed', `${ran} check(s) passed${suffix}`, [], details);
}

function findingFor(outcome: CheckOutcome, check: Check): Finding | null {
  const base = { validator: 'checks', ruleId: check.name, severity: 'high' as const, anchor: check.name };
  switch (outcome.state) {
    case 'passed':
    case 'not_applicable':
    case 'interrupted':
      return null;
    case 'failed':
      return makeFinding({
        ...base,
        // A waiver of this failure must not cover the next, different one: the id follows what failed.
        anchor: `${check.name}\n${outcome.signature}`,
        title: `check "${check.name}" failed (${outcome.exitCode === null ? `signal ${outcome.signal}` : `exit ${outcome.exitCode}`})`,
        // The pointer goes last: every excerpt keeps the last line (see failureExcerpt).
        body: `${outcome.tail}\n— \`${check.run}\` exited ${outcome.exitCode ?? `on signal ${outcome.signal}`}; full log: ${outcome.log}`,
      });
    case 'timed_out':
      return makeFinding({
        ...base,
        title: `check "${check.name}" timed out after ${formatDuration(outcome.timeoutMs)}`,
        body: `${outcome.tail}\n— \`${check.run}\` was killed with its process group; raise checks[].timeout if it is just slow. Full log: ${outcome.log}`,
      });
    case 'not_started':
      return makeFinding({ ...base, title: `check "${check.name}" could not start`, body: outcome.reason });
  }
}

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'check';
}
