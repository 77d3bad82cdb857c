import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import { runProcess } from '../../core/process.js';
import { blockingFindings, type RunReport } from '../../core/run/run-report.js';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { renderReport } from '../../report/index.js';
import { readActionEnvironment } from './action-inputs.js';
import { upsertStickyComment } from './comment-api.js';
import { parsePullRequestEvent } from './event.js';
import { runnerFileEntry } from './runner-files.js';

/**
 * The GitHub Action's one step (`tollgate action-step`, run by `action.yml`): one `tollgate run` of the workspace
 * against the PR's base, then every output from that one report: the step summary, annotations, SARIF, the sticky
 * comment and the step outputs. The exit code is the run's, so the job fails exactly when the gate does.
 */
export interface ActionStepIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** This tollgate's entry script, run again for the gate itself. */
  self: string;
}

const reportShape = z
  .object({ verdict: z.string(), tools: z.array(z.object({ findings: z.array(z.unknown()) }).passthrough()) })
  .passthrough();

export async function runActionStep(io: ActionStepIo): Promise<number> {
  const input = readActionEnvironment(io.env);
  const pr = input.GITHUB_EVENT_PATH ? parsePullRequestEvent(await readEvent(input.GITHUB_EVENT_PATH)) : undefined;
  const base = input.TOLLGATE_BASE || pr?.baseSha;
  const dir = join(input.RUNNER_TEMP || tmpdir(), 'tollgate');
  await mkdir(dir, { recursive: true });
  const reportPath = join(dir, 'report.json');
  const args = [io.self, 'run', '--format', 'json', '--output', reportPath];
  if (base) args.push('--base', base);
  for (const name of input.TOLLGATE_ONLY) args.push('--only', name);
  for (const name of input.TOLLGATE_SKIP) args.push('--skip', name);
  // The gate and the checks it runs never see the token.
  const { TOLLGATE_TOKEN: _token, GITHUB_TOKEN: _github, ...childEnv } = io.env;
  if (input.TOLLGATE_CONFIG_INPUT) childEnv.TOLLGATE_CONFIG = input.TOLLGATE_CONFIG_INPUT;
  const run = await runProcess(process.execPath, args, {
    cwd: input.GITHUB_WORKSPACE,
    env: childEnv,
    timeoutMs: 6 * 3600_000,
    onOutput: (stream, chunk) => {
      if (stream === 'stderr') io.stderr(chunk.toString('utf8'));
    },
  });
  if (run.exitCode !== 0 && run.exitCode !== 1) return run.exitCode ?? 3;
  const report = await readReport(reportPath);
  await appendFile(input.GITHUB_STEP_SUMMARY, await renderReport(report, 'markdown'));
  if (input.TOLLGATE_ANNOTATIONS) io.stdout(await renderReport(report, 'github'));
  let sarifPath = '';
  if (input.TOLLGATE_SARIF) {
    sarifPath = join(dir, 'report.sarif');
    await writeFileAtomic(sarifPath, await renderReport(report, 'sarif'));
  }
  const findings = report.tools.reduce((sum, tool) => sum + blockingFindings(tool).length, 0);
  const outputs = {
    verdict: report.verdict,
    findings: String(findings),
    'report-path': reportPath,
    'sarif-path': sarifPath,
  };
  await appendFile(
    input.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([name, value]) => runnerFileEntry(name, value))
      .join(''),
  );
  if (input.TOLLGATE_COMMENT) await comment(input, pr, report, io);
  // Report-only mode still fails on bad usage or config (handled above): only the verdict is let through.
  return input.TOLLGATE_FAIL_ON === 'never' ? 0 : run.exitCode;
}

async function comment(
  input: ReturnType<typeof readActionEnvironment>,
  pr: ReturnType<typeof parsePullRequestEvent>,
  report: RunReport,
  io: ActionStepIo,
): Promise<void> {
  if (!pr) {
    io.stderr('tollgate: comment: not a pull_request event; no comment written\n');
    return;
  }
  if (!input.TOLLGATE_TOKEN) throw new TollgateError('usage', 'token: empty; the sticky comment needs a token');
  const target = { apiUrl: input.GITHUB_API_URL, token: input.TOLLGATE_TOKEN, ...pr };
  const done = await upsertStickyComment(target, await renderReport(report, 'markdown'));
  io.stderr(`tollgate: sticky comment ${done.action} on #${pr.number}\n`);
}

async function readEvent(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new TollgateError('usage', `GITHUB_EVENT_PATH: cannot read ${path} as JSON (${(error as Error).message})`);
  }
}

async function readReport(path: string): Promise<RunReport> {
  const parsed = reportShape.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new TollgateError('io', `${path}: not a tollgate run report`);
  return parsed.data as unknown as RunReport;
}
