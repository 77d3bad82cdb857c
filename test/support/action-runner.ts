import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runProcess } from '../../src/core/process.js';
import { tempDir } from './temp-home.js';
import { timeBudget } from './time-budget.js';

/**
 * Runs the Action the way the runner runs a JavaScript action: `node <runs.main>` from the action's folder, each input
 * as `INPUT_<NAME>` with action.yml's defaults filled in (`${{ github.token }}` too), and the runner's files and
 * variables set. It runs the committed bundle (action/dist), which action-bundle.test.ts keeps equal to a fresh build.
 */
export const repoRoot = join(import.meta.dirname, '../..');
export const actionYml = parseYaml(readFileSync(join(repoRoot, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; main: string };
};

/** The runner's INPUT_* for the workflow's `with:`, action.yml's defaults for the rest. */
export function inputEnvironment(inputs: Record<string, string>, githubToken: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, spec] of Object.entries(actionYml.inputs)) {
    const given = inputs[name] ?? (spec.default ?? '').replace(/^\$\{\{\s*github\.token\s*\}\}$/, githubToken);
    if (given.includes('${{')) throw new Error(`action.yml: input ${name} has a default the harness does not know`);
    env[`INPUT_${name.toUpperCase()}`] = given;
  }
  for (const name of Object.keys(inputs))
    if (!(name in actionYml.inputs))
      throw new Error(`the workflow sets input ${name}, which action.yml does not declare`);
  return env;
}

export interface RunnerFiles {
  dir: string;
  output: string;
  summary: string;
  env: string;
  path: string;
}

/** A job's runner files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV, GITHUB_PATH), empty, in a new temp folder. */
export async function createRunnerFiles(): Promise<RunnerFiles> {
  const dir = await tempDir('tollgate-runner-');
  const files = {
    dir,
    output: join(dir, 'output'),
    summary: join(dir, 'summary'),
    env: join(dir, 'env'),
    path: join(dir, 'path'),
  };
  for (const file of [files.output, files.summary, files.env, files.path]) writeFileSync(file, '');
  return files;
}

/** The variables the runner sets for every step of a job on these files. */
export function runnerEnvironment(files: RunnerFiles, workspace: string): Record<string, string> {
  return {
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    RUNNER_TEMP: files.dir,
  };
}

/** `node <runs.main>` in `cwd` with `env` (the runner's variables) and the inputs as INPUT_*. */
export async function runActionMain(
  cwd: string,
  env: NodeJS.ProcessEnv,
  inputs: Record<string, string>,
  githubToken: string,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const result = await runProcess(process.execPath, [join(repoRoot, actionYml.runs.main)], {
    cwd,
    env: { ...env, ...inputEnvironment(inputs, githubToken) },
    timeoutMs: timeBudget(120_000),
  });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/** The runner's reading of GITHUB_OUTPUT: `name=value` lines and `name<<DELIM` … `DELIM` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('=')) {
      const [name, ...rest] = lines[i]!.split('=');
      outputs[name!] = rest.join('=');
    }
  }
  return outputs;
}
