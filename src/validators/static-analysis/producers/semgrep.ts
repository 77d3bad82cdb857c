import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatDuration } from '../../../core/config/units.js';
import { knownMissing, rememberMissing } from './missing-analyzers.js';
import { firstOutputLine, type ProducerInput, type ProducerOutcome } from './producer.js';

const SEMGREP_INSTALL = 'install Semgrep (`pipx install semgrep` or `brew install semgrep`) and put `semgrep` on PATH';

const SEMGREP_DOCS = 'docs/validators/static-analysis.md#semgrep';

const LOCAL_CONFIGS = ['.semgrep.yml', '.semgrep.yaml', '.semgrep'];

/** The `--config` values: the configured ones, else the repository's own rules, else the registry's default set. */
function semgrepConfigs(repoRoot: string, configured: readonly string[]): string[] {
  if (configured.length > 0) return [...configured];
  const local = LOCAL_CONFIGS.find((name) => existsSync(join(repoRoot, name)));
  return [local ?? 'p/default'];
}

/**
 * `semgrep scan` on the changed files only. `--metrics=off` because a gate must not phone home, and it rules out
 * `--config auto` (which needs metrics), hence `p/default` as the fallback. Without `--error`, semgrep exits 0
 * with findings; any other code is a failure (https://semgrep.dev/docs/cli-reference#exit-codes).
 */
function semgrepArgs(options: { configs: readonly string[]; output: string; files: readonly string[] }): string[] {
  return [
    'scan',
    '--sarif',
    `--output=${options.output}`,
    '--metrics=off',
    '--disable-version-check',
    '--quiet',
    ...options.configs.map((config) => `--config=${config}`),
    '--',
    ...options.files,
  ];
}

export async function runSemgrep(input: ProducerInput): Promise<ProducerOutcome> {
  const { ctx } = input;
  const options = ctx.options.semgrep;
  const producer = 'semgrep';
  if (options.enabled === false)
    return { producer, state: 'not_applicable', reason: 'turned off (semgrep.enabled: false)' };
  if (input.files.length === 0) return { producer, state: 'not_applicable', reason: 'no changed file to scan' };
  const probe = { analyzer: producer, config: options, env: ctx.env, repoRoot: ctx.repoRoot };
  const missing = (known: boolean): ProducerOutcome => ({
    producer,
    state: 'unavailable',
    reason: '`semgrep` is not on PATH',
    install: SEMGREP_INSTALL,
    docs: SEMGREP_DOCS,
    known,
    required: options.enabled === true,
  });
  if (await knownMissing(probe)) return missing(true);
  const output = join(ctx.artifactsDir, 'semgrep.sarif');
  const timeoutMs = Math.max(1, Math.min(options.timeout, ctx.budget.remainingMs()));
  const outcome = await ctx.runProcess(
    'semgrep',
    semgrepArgs({
      configs: semgrepConfigs(ctx.repoRoot, options.config),
      output,
      files: input.files.map((file) => file.path),
    }),
    { cwd: ctx.repoRoot, timeoutMs, maxOutputBytes: 1024 * 1024 },
  );
  // Said after the fact: a missing semgrep must not have been announced as scanning.
  if (!outcome.spawnError) ctx.progress(`semgrep: scanned ${input.files.length} file(s)`);
  if (outcome.spawnError) return missing(!(await rememberMissing(probe)));
  if (outcome.timedOut || outcome.aborted) {
    return {
      producer,
      state: 'timed_out',
      reason: `semgrep timed out after ${formatDuration(outcome.durationMs)} (semgrep.timeout)`,
    };
  }
  if (outcome.exitCode !== 0 && outcome.exitCode !== 1) {
    return {
      producer,
      state: 'failed',
      reason: `semgrep exited ${outcome.exitCode}: ${firstOutputLine(outcome.stderr, outcome.stdout)}`,
    };
  }
  return { producer, state: 'ran', logs: [{ file: output }] };
}
