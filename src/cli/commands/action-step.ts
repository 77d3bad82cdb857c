import { resolve } from 'node:path';
import type { Command } from 'commander';

/** `tollgate action-step`: what the GitHub Action (`action.yml`) runs; reads its inputs from the environment. */
export function registerActionStep(program: Command): void {
  program
    .command('action-step')
    .summary('the GitHub Action step: run the gate, then write summary, annotations, SARIF, outputs and the PR comment')
    .description(
      "Run by the GitHub Action's main (action/dist/index.cjs, which sets TOLLGATE_* from the runner's INPUT_*) on a GitHub runner. Reads the Action's inputs from TOLLGATE_COMMAND, TOLLGATE_BASE, TOLLGATE_ONLY, TOLLGATE_SKIP, TOLLGATE_SARIF, TOLLGATE_COMMENT, TOLLGATE_ANNOTATIONS and TOLLGATE_TOKEN, and the runner's GITHUB_WORKSPACE, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_API_URL. Runs `tollgate run` once against the pull request's base, appends the Markdown report to the step summary, prints annotations, writes SARIF when asked, sets the outputs verdict, findings, report-path and sarif-path, and creates or edits one sticky PR comment. Exit code: the run's (0 passed, 1 failed, 2 bad usage or config).",
    )
    .addHelpText(
      'after',
      `
Example:
  $ tollgate action-step
(the Action's main sets TOLLGATE_COMMENT, TOLLGATE_TOKEN and the other inputs from INPUT_*; see docs/ci.md for a workflow to copy.)`,
    )
    .action(async () => {
      const { runActionStep } = await import('../../integrations/github-action/action-step.js');
      process.exitCode = await runActionStep({
        env: process.env,
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        self: resolve(process.argv[1] ?? 'tollgate'),
      });
    });
}
