import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TollgateError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { type ActionEnvironment, readActionEnvironment } from './action-inputs.js';
import { runAlertCommand } from './alert-command.js';
import { ChildFailed } from './child-run.js';
import type { CommandOutcome } from './command-outcome.js';
import { CommentNotAllowed, upsertStickyComment } from './comment-api.js';
import { parsePullRequestEvent } from './event.js';
import { runGateCommand } from './gate-command.js';
import { runnerFileEntry } from './runner-files.js';
import { runScanCommand } from './scan-command.js';

/**
 * The GitHub Action's one step (`tollgate action-step`, run by `action.yml`): one tollgate command (`run`, `scan` or
 * `validate-alert`) in the workspace, then every output from its one report: the step summary, annotations, SARIF,
 * the sticky comment and the step outputs. The exit code is the command's, so the job fails exactly when it does
 * (unless `fail-on: never`, which still fails on bad input).
 */
export interface ActionStepIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** This tollgate's entry script, run again for the command itself. */
  self: string;
}

export async function runActionStep(io: ActionStepIo): Promise<number> {
  const input = readActionEnvironment(io.env);
  const event = input.GITHUB_EVENT_PATH ? await readEvent(input.GITHUB_EVENT_PATH) : undefined;
  const pr = parsePullRequestEvent(event);
  const base = input.TOLLGATE_BASE || pr?.baseSha;
  const dir = join(input.RUNNER_TEMP || tmpdir(), 'tollgate');
  await mkdir(dir, { recursive: true });
  const child = { env: io.env, self: io.self, stderr: io.stderr };
  let outcome: CommandOutcome;
  try {
    if (input.TOLLGATE_COMMAND === 'scan') outcome = await runScanCommand(input, base, dir, child);
    else if (input.TOLLGATE_COMMAND === 'validate-alert') outcome = await runAlertCommand(input, dir, child);
    else outcome = await runGateCommand(input, base, dir, child);
  } catch (error) {
    // The child printed its own one-line error; its exit code (2 usage, 3 internal) stands, whatever fail-on says.
    if (error instanceof ChildFailed) return error.exitCode ?? 3;
    throw error;
  }
  await appendFile(input.GITHUB_STEP_SUMMARY, outcome.markdown);
  if (input.TOLLGATE_ANNOTATIONS && outcome.annotations) io.stdout(outcome.annotations);
  let sarifPath = '';
  if (outcome.sarif !== undefined) {
    sarifPath = join(dir, 'report.sarif');
    await writeFileAtomic(sarifPath, outcome.sarif);
  }
  const outputs = {
    verdict: outcome.verdict,
    findings: String(outcome.findings),
    'report-path': outcome.reportPath,
    'sarif-path': sarifPath,
  };
  await appendFile(
    input.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([name, value]) => runnerFileEntry(name, value))
      .join(''),
  );
  if (input.TOLLGATE_COMMENT) await comment(input, pr, outcome.markdown, io);
  return input.TOLLGATE_FAIL_ON === 'never' ? 0 : outcome.exitCode;
}

async function comment(
  input: ActionEnvironment,
  pr: ReturnType<typeof parsePullRequestEvent>,
  markdown: string,
  io: ActionStepIo,
): Promise<void> {
  if (!pr) {
    io.stderr('tollgate: comment: not a pull_request event; no comment written\n');
    return;
  }
  if (!input.TOLLGATE_TOKEN) throw new TollgateError('usage', 'token: empty; the sticky comment needs a token');
  const target = { apiUrl: input.GITHUB_API_URL, token: input.TOLLGATE_TOKEN, ...pr };
  try {
    const done = await upsertStickyComment(target, markdown);
    io.stderr(`tollgate: sticky comment ${done.action} on #${pr.number}\n`);
  } catch (error) {
    // A fork's pull request runs with a read-only token: the gate's result stands, the report is in the summary.
    if (!(error instanceof CommentNotAllowed)) throw error;
    const why = `tollgate: no comment on #${pr.number}: the token cannot write to the pull request (a fork's pull request gets a read-only token); the report is in the step summary`;
    io.stdout(`::notice title=tollgate comment::${why}\n`);
    await appendFile(input.GITHUB_STEP_SUMMARY, `\n> ${why}.\n`);
  }
}

async function readEvent(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new TollgateError('usage', `GITHUB_EVENT_PATH: cannot read ${path} as JSON (${(error as Error).message})`);
  }
}
