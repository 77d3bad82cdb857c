/** What one of the Action's commands produced; `action-step` turns it into the summary, outputs and comment. */
export interface CommandOutcome {
  /** The step's exit code before `fail-on` (the command's own: 0 pass, 1 fail, 4 inconclusive alert). */
  exitCode: number;
  verdict: string;
  findings: number;
  reportPath: string;
  /** For the step summary and the sticky comment. */
  markdown: string;
  /** Workflow commands for the step log ('' when the command has no file-level results). */
  annotations: string;
  /** Rendered SARIF, when the command has file-level results and `sarif` is on. */
  sarif?: string;
}
