import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runProcess } from '../../src/core/process.js';
import { parseOutputs, runActionMain } from './action-runner.js';
import { timeBudget } from './time-budget.js';

/**
 * Runs one job of a workflow file the way the runner does, far enough to show that a documented workflow works when
 * copied: `run:` steps in bash (`-eo pipefail`) with the runner's files, GITHUB_ENV and GITHUB_PATH carried to later
 * steps, each step's outputs from its own GITHUB_OUTPUT, `if:` conditions, and a failed step skipping the rest unless
 * they ask for `always()`. tollgate's own Action runs for real (action/dist); other actions are the stand-ins given.
 */
export interface WorkflowStep {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
export interface WorkflowJob {
  permissions?: Record<string, string>;
  steps: WorkflowStep[];
}
export interface Workflow {
  permissions?: Record<string, string> | string;
  jobs: Record<string, WorkflowJob>;
}

export interface StepContext {
  with: Record<string, string>;
  env: NodeJS.ProcessEnv;
  workspace: string;
  /** The job's GITHUB_PATH: a stand-in adds folders to later steps' PATH here, as setup-* actions do. */
  addPath(dir: string): void;
}
export type StandIn = (step: StepContext) => Promise<{ exitCode: number; outputs?: Record<string, string> }>;

export interface JobRun {
  conclusion: 'success' | 'failure';
  steps: Array<{ step: string; outcome: 'success' | 'failure' | 'skipped'; log: string }>;
  summary: string;
}

export function readWorkflow(path: string): Workflow {
  return parseYaml(readFileSync(path, 'utf8')) as Workflow;
}

export async function runJob(
  job: WorkflowJob,
  options: {
    workspace: string;
    runnerDir: string;
    env: NodeJS.ProcessEnv;
    ownAction: string;
    githubToken: string;
    standIns: Record<string, StandIn>;
    secrets?: Record<string, string>;
  },
): Promise<JobRun> {
  const files = { env: join(options.runnerDir, 'env'), path: join(options.runnerDir, 'path') };
  const summary = join(options.runnerDir, 'summary');
  for (const file of [files.env, files.path, summary]) writeFileSync(file, '');
  const outputs: Record<string, Record<string, string>> = {};
  const context = { outputs, token: options.githubToken, secrets: options.secrets ?? {} };
  const run: JobRun = { conclusion: 'success', steps: [], summary: '' };
  for (const [index, step] of job.steps.entries()) {
    const label = step.name ?? step.uses ?? step.run ?? `step ${index}`;
    if (!shouldRun(step.if, run.conclusion === 'failure', context)) {
      run.steps.push({ step: label, outcome: 'skipped', log: '' });
      continue;
    }
    const output = join(options.runnerDir, `output-${index}`);
    writeFileSync(output, '');
    const env = stepEnvironment(options.env, files, step, context, {
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
      GITHUB_WORKSPACE: options.workspace,
      RUNNER_TEMP: options.runnerDir,
    });
    const inputs = Object.fromEntries(
      Object.entries(step.with ?? {}).map(([name, value]) => [name, evaluate(String(value), context)]),
    );
    const result = await runStep(step, inputs, env, options, (dir) => appendFileSync(files.path, `${dir}\n`));
    if (step.id) outputs[step.id] = { ...parseOutputs(readFileSync(output, 'utf8')), ...result.outputs };
    run.steps.push({ step: label, outcome: result.exitCode === 0 ? 'success' : 'failure', log: result.log });
    if (result.exitCode !== 0) run.conclusion = 'failure';
  }
  run.summary = readFileSync(summary, 'utf8');
  return run;
}

async function runStep(
  step: WorkflowStep,
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv,
  options: { workspace: string; ownAction: string; githubToken: string; standIns: Record<string, StandIn> },
  addPath: (dir: string) => void,
): Promise<{ exitCode: number; outputs?: Record<string, string>; log: string }> {
  if (step.run !== undefined) {
    const result = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: options.workspace,
      env,
      timeoutMs: timeBudget(180_000),
    });
    return { exitCode: result.exitCode ?? 1, log: result.stdout + result.stderr };
  }
  const uses = step.uses ?? '';
  if (uses === options.ownAction) {
    const result = await runActionMain(options.workspace, env, inputs, options.githubToken);
    return { exitCode: result.exitCode ?? 1, log: result.stdout + result.stderr };
  }
  const standIn = options.standIns[uses.split('@')[0] ?? ''];
  if (!standIn) throw new Error(`the workflow uses ${uses}, for which the harness has no stand-in`);
  const result = await standIn({ with: inputs, env, workspace: options.workspace, addPath });
  return { ...result, log: '' };
}

interface ExpressionContext {
  outputs: Record<string, Record<string, string>>;
  token: string;
  secrets: Record<string, string>;
}

function stepEnvironment(
  base: NodeJS.ProcessEnv,
  files: { env: string; path: string },
  step: WorkflowStep,
  context: ExpressionContext,
  runner: Record<string, string>,
): NodeJS.ProcessEnv {
  const added = parseOutputs(readFileSync(files.env, 'utf8'));
  const paths = readFileSync(files.path, 'utf8').split('\n').filter(Boolean).reverse();
  const env: NodeJS.ProcessEnv = { ...base, ...added, ...runner };
  env.PATH = [...paths, base.PATH ?? ''].join(':');
  for (const [name, value] of Object.entries(step.env ?? {})) env[name] = evaluate(String(value), context);
  return env;
}

/** `${{ … }}` in a string, each filled in. */
function evaluate(template: string, context: ExpressionContext): string {
  return template.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => String(value(expression, context)));
}

/** The few expressions the documented workflows use; anything else is a test failure, not a silent blank. */
function value(expression: string, context: ExpressionContext): string | boolean {
  const parts = expression.split('&&').map((part) => part.trim());
  if (parts.length > 1) return parts.every((part) => truthy(value(part, context)));
  if (expression === 'always()') return true;
  const compare = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(expression);
  if (compare) {
    const equal = value(compare[1]!, context) === value(compare[3]!, context);
    return compare[2] === '==' ? equal : !equal;
  }
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
  if (output) return context.outputs[output[1]!]?.[output[2]!] ?? '';
  const secret = /^secrets\.(\w+)$/.exec(expression);
  if (secret) return context.secrets[secret[1]!] ?? '';
  if (expression === 'github.token') return context.token;
  const literal = /^'(.*)'$/.exec(expression);
  if (literal) return literal[1]!;
  throw new Error(`the workflow uses an expression the harness does not know: ${expression}`);
}

function truthy(result: string | boolean): boolean {
  return result !== '' && result !== false;
}

/** A step's `if:`; without `always()` a step runs only while the job has not failed. */
function shouldRun(condition: string | undefined, failed: boolean, context: ExpressionContext): boolean {
  if (!condition) return !failed;
  const expression = condition.replace(/^\$\{\{\s*|\s*\}\}$/g, '');
  if (failed && !/\balways\(\)/.test(expression)) return false;
  return truthy(value(expression, context));
}
