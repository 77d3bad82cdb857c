import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatDuration } from '../../../core/config/units.js';
import { eslintJsonSchema, eslintJsonToSarif } from './eslint-json-to-sarif.js';
import { firstOutputLine, type ProducerInput, type ProducerOutcome } from './producer.js';

const ESLINT_INSTALL = 'add ESLint to the project (`npm install --save-dev eslint`) with an eslint.config.js';

const ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  'eslint.config.mts',
  'eslint.config.cts',
  '.eslintrc',
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.json',
  '.eslintrc.yaml',
  '.eslintrc.yml',
];
const LINTED = /\.(?:[cm]?[jt]sx?)$/;

function packageJson(repoRoot: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function hasEslintConfig(repoRoot: string): boolean {
  return ESLINT_CONFIGS.some((name) => existsSync(join(repoRoot, name))) || 'eslintConfig' in packageJson(repoRoot);
}

const XO_CONFIGS = [
  'xo.config.js',
  'xo.config.mjs',
  'xo.config.cjs',
  'xo.config.ts',
  '.xo-config.json',
  '.xo-config.js',
];

/**
 * Projects that lint through xo (ESLint with its own config and defaults): xo is their ESLint. Detected by its config
 * file, an `xo` key in package.json, or xo among the dev dependencies.
 */
function usesXo(repoRoot: string): boolean {
  const manifest = packageJson(repoRoot);
  const dev = { ...(manifest.devDependencies as object | undefined), ...(manifest.dependencies as object | undefined) };
  return XO_CONFIGS.some((name) => existsSync(join(repoRoot, name))) || 'xo' in manifest || 'xo' in dev;
}

/** How the project runs ESLint: its own binary with its config, or xo; null when neither is set up. */
function eslintCommand(repoRoot: string): { name: string; bin: string; args: string[] } | 'missing-xo' | null {
  const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
  if (hasEslintConfig(repoRoot)) {
    return { name: 'eslint', bin: bin('eslint'), args: ['--format', 'json', '--no-error-on-unmatched-pattern', '--'] };
  }
  if (usesXo(repoRoot)) {
    // xo's JSON reporter prints ESLint's own JSON report.
    return existsSync(bin('xo')) ? { name: 'xo', bin: bin('xo'), args: ['--reporter=json', '--'] } : 'missing-xo';
  }
  return null;
}

/**
 * The project's own ESLint (node_modules/.bin/eslint, with the project's config) on the changed JS/TS files.
 * ESLint exits 0 when clean, 1 with lint errors and 2 on a crash or bad config
 * (https://eslint.org/docs/latest/use/command-line-interface#exit-codes).
 */
export async function runEslint(input: ProducerInput): Promise<ProducerOutcome> {
  const { ctx } = input;
  const options = ctx.options.eslint;
  const producer = 'eslint';
  if (options.enabled === false)
    return { producer, state: 'not_applicable', reason: 'turned off (eslint.enabled: false)' };
  const files = input.files.filter((file) => LINTED.test(file.path)).map((file) => file.path);
  if (files.length === 0)
    return { producer, state: 'not_applicable', reason: 'no changed JavaScript or TypeScript file' };
  const command = eslintCommand(ctx.repoRoot);
  if (command === 'missing-xo') {
    return {
      producer,
      state: 'unavailable',
      reason: 'the project lints with xo, but node_modules/.bin/xo is missing',
      install: "install the project's dependencies (`npm install`)",
      required: options.enabled === true,
    };
  }
  const bin = command?.bin ?? join(ctx.repoRoot, 'node_modules', '.bin', 'eslint');
  if (!existsSync(bin)) {
    return {
      producer,
      state: 'unavailable',
      reason: 'the project has no node_modules/.bin/eslint',
      install: ESLINT_INSTALL,
      required: options.enabled === true,
    };
  }
  if (!command) {
    return { producer, state: 'not_applicable', reason: 'the project has no ESLint or xo config' };
  }
  const timeoutMs = Math.max(1, Math.min(options.timeout, ctx.budget.remainingMs()));
  ctx.progress(`eslint: linting ${files.length} file(s) with ${command.name}`);
  const outcome = await ctx.runProcess(bin, [...command.args, ...files], {
    cwd: ctx.repoRoot,
    timeoutMs,
    maxOutputBytes: 64 * 1024 * 1024,
  });
  if (outcome.spawnError)
    return { producer, state: 'failed', reason: `could not start ${bin}: ${outcome.spawnError.message}` };
  if (outcome.timedOut || outcome.aborted) {
    return {
      producer,
      state: 'timed_out',
      reason: `eslint timed out after ${formatDuration(outcome.durationMs)} (eslint.timeout)`,
    };
  }
  if (outcome.exitCode !== 0 && outcome.exitCode !== 1) {
    return {
      producer,
      state: 'failed',
      reason: `eslint exited ${outcome.exitCode}: ${firstOutputLine(outcome.stderr, outcome.stdout)}`,
    };
  }
  let parsed: ReturnType<typeof eslintJsonSchema.parse>;
  try {
    parsed = eslintJsonSchema.parse(JSON.parse(outcome.stdout));
  } catch {
    return {
      producer,
      state: 'failed',
      reason: `eslint --format json printed something other than its JSON report${outcome.truncated ? ' (output over 64 MiB)' : ''}`,
    };
  }
  const output = join(ctx.artifactsDir, 'eslint.sarif');
  await writeFile(output, JSON.stringify(eslintJsonToSarif(parsed)), { mode: 0o600 });
  return { producer, state: 'ran', logs: [{ file: output }] };
}
