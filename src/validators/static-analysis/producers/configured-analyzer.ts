import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { formatDuration } from '../../../core/config/units.js';
import { changeEnvironment } from '../../../core/pipeline/change-environment.js';
import type { AnalyzerConfig } from '../options.js';
import { firstOutputLine, type ProducerInput, type ProducerOutcome } from './producer.js';

/** Exit status of `sh -c` when the command is not found. */
const COMMAND_NOT_FOUND = 127;

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

async function fileStamp(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : null;
}

/**
 * Any command from config that writes SARIF 2.1.0 (`analyzers: [{ name, run, sarif }]`). Many analyzers exit
 * non-zero when they find something, so the exit code alone decides nothing: a log written by this run is read
 * whatever the code; no new log is a failure.
 */
export async function runConfiguredAnalyzer(
  analyzer: AnalyzerConfig,
  index: number,
  input: ProducerInput,
): Promise<ProducerOutcome> {
  const { ctx } = input;
  const producer = analyzer.name;
  if (analyzer.paths && analyzer.paths.length > 0) {
    const matches = picomatch(analyzer.paths, { dot: true });
    if (!input.files.some((file) => matches(file.path))) {
      return { producer, state: 'not_applicable', reason: 'no changed file matches its `paths`' };
    }
  }
  const sarif = resolve(ctx.repoRoot, analyzer.sarif);
  const change = await changeEnvironment(
    join(ctx.artifactsDir, `${safeFileName(analyzer.name)}.changed-files.nul`),
    ctx.changeSet.base.commit,
    input.files.map((file) => file.path),
  );
  const before = await fileStamp(sarif);
  const timeoutMs = Math.max(1, Math.min(analyzer.timeout, ctx.budget.remainingMs()));
  ctx.progress(`${producer}: running \`${analyzer.run}\``);
  const outcome = await ctx.runProcess('sh', ['-c', analyzer.run], {
    cwd: ctx.repoRoot,
    env: {
      ...ctx.env,
      TOLLGATE_SARIF: sarif,
      ...change,
    },
    timeoutMs,
    maxOutputBytes: 256 * 1024,
  });
  const where = `analyzers[${index}]`;
  if (outcome.spawnError)
    return { producer, state: 'failed', reason: `could not start sh: ${outcome.spawnError.message}` };
  if (outcome.timedOut || outcome.aborted) {
    return {
      producer,
      state: 'timed_out',
      reason: `${producer} timed out after ${formatDuration(outcome.durationMs)} (${where}.timeout)`,
    };
  }
  if (outcome.exitCode === COMMAND_NOT_FOUND) {
    return {
      producer,
      state: 'unavailable',
      reason: `${where}.run: command not found (${firstOutputLine(outcome.stderr)})`,
      install: `install the analyzer that ${where}.run calls, or fix the command`,
      required: true,
    };
  }
  const after = await fileStamp(sarif);
  if (after === null || after === before) {
    return {
      producer,
      state: 'failed',
      reason: `${producer} exited ${outcome.exitCode} without writing ${analyzer.sarif} (${where}.sarif): ${firstOutputLine(outcome.stderr, outcome.stdout)}`,
    };
  }
  return { producer, state: 'ran', logs: [{ file: sarif }], details: { exitCode: outcome.exitCode } };
}
