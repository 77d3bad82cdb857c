import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { DeclaredValidator } from '../../core/config/declared-validators.js';
import { formatDuration } from '../../core/config/units.js';
import { atLeast, type Finding } from '../../core/finding.js';
import { changeEnvironment } from '../../core/pipeline/change-environment.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import { redactFileInPlace } from '../../secrets/redact.js';
import { firstOutputLine } from '../static-analysis/producers/producer.js';
import { findingsOfJson, findingsOfSarif } from './declared-findings.js';

/** Exit status of `sh -c` when the command is not found. */
const COMMAND_NOT_FOUND = 127;
/** The most a command may print; more is refused rather than read in part. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * Runs one declared validator's command from the run's tree, the changed files on stdin (one per line) and in
 * `TOLLGATE_CHANGED_FILES` (NUL-separated), and turns what it printed into findings. Exit 0 or 1 means the output is
 * the answer; any other exit, an unreadable output or a timeout is never a pass.
 */
export async function runDeclaredValidator(
  name: string,
  declaration: DeclaredValidator,
  ctx: ToolContext<unknown, unknown>,
): Promise<ToolResult> {
  const where = `validators.${name}`;
  const files = ctx.changeSet.files.filter((file) => file.status !== 'deleted').map((file) => file.path);
  if (declaration.paths && declaration.paths.length > 0) {
    const matches = picomatch(declaration.paths, { dot: true });
    if (!files.some((path) => matches(path))) {
      return result('passed', `no changed file matches ${where}.paths`, [], { ran: false });
    }
  }
  const cwd = resolve(ctx.repoRoot, declaration.cwd);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    return result('error', `validator ${name}: ${where}.cwd ${JSON.stringify(declaration.cwd)} is not a directory`);
  }
  const change = await changeEnvironment(join(ctx.artifactsDir, 'changed-files.nul'), ctx.changeSet.base.commit, files);
  const timeoutMs = Math.max(1, Math.min(declaration.timeout, ctx.budget.remainingMs()));
  ctx.progress(`${name}: running \`${declaration.run}\``);
  const outcome = await ctx.runProcess('sh', ['-c', declaration.run], {
    cwd,
    env: { ...ctx.env, ...change, ...declaration.env, TOLLGATE_VALIDATOR: name },
    input: files.map((path) => `${path}\n`).join(''),
    timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
  });
  if (outcome.spawnError)
    return result('error', `validator ${name}: could not start sh: ${outcome.spawnError.message}`);
  if (outcome.timedOut && timeoutMs < declaration.timeout) {
    return result(
      'timeout',
      `validator ${name}: validation.timeout ran out while it was running; do not rerun: raise \`validation.timeout\``,
    );
  }
  if (outcome.timedOut) {
    return result(
      'timeout',
      `validator ${name} timed out after ${formatDuration(declaration.timeout)} (${where}.timeout); nothing was decided`,
    );
  }
  if (outcome.aborted) return result('incomplete', `validator ${name} was stopped before it finished`);
  if (outcome.exitCode === COMMAND_NOT_FOUND) {
    return result(
      'tool_unavailable',
      `validator ${name}: ${where}.run: command not found (${firstOutputLine(outcome.stderr)}); install it or fix the command`,
    );
  }
  if (outcome.exitCode !== 0 && outcome.exitCode !== 1) {
    const how = outcome.exitCode === null ? `on signal ${outcome.signal}` : outcome.exitCode;
    return result(
      'error',
      `validator ${name}: \`${declaration.run}\` exited ${how} (0 or 1 expected): ${firstOutputLine(outcome.stderr, outcome.stdout)}`,
    );
  }
  if (outcome.truncated) {
    return result(
      'error',
      `validator ${name}: printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB; expected its findings only`,
    );
  }
  const read = await readFindings(name, declaration, ctx, outcome.stdout);
  if (!read.ok) return result('error', `validator ${name}: invalid output: ${read.problem}`);
  return summarize(name, read.findings, read.outside);
}

type ReadFindings = { ok: true; findings: Finding[]; outside: number } | { ok: false; problem: string };

/** The output, kept in the run folder (masked) and read as the declaration's `format` says. */
async function readFindings(
  name: string,
  declaration: DeclaredValidator,
  ctx: ToolContext<unknown, unknown>,
  stdout: string,
): Promise<ReadFindings> {
  const output = join(ctx.artifactsDir, declaration.format === 'sarif' ? 'output.sarif' : 'output.json');
  await writeFile(output, stdout, { mode: 0o600 });
  try {
    return declaration.format === 'sarif'
      ? await findingsOfSarif(name, output, ctx)
      : await findingsOfJson(name, stdout, ctx);
  } finally {
    await redactFileInPlace(output);
  }
}

function summarize(name: string, findings: Finding[], outside: number): ToolResult {
  const blocking = findings.filter((finding) => atLeast(finding.severity, 'low'));
  const dropped = outside > 0 ? ` (${outside} outside the changed files left out)` : '';
  // `failOn` tells the reports which findings block: an `info` finding is shown, not held against the change.
  const details = { failOn: 'low', findings: findings.length, outsideChangedFiles: outside };
  if (blocking.length > 0) {
    return result(
      'failed',
      `${name}: ${blocking.length} finding(s) on the change${dropped}; fix them and run tollgate again`,
      findings,
      details,
    );
  }
  return result('passed', `${name}: no findings on the change${dropped}`, findings, details);
}
