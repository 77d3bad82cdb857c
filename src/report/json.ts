import { nextStep, type RunReport } from './run-report.js';

/** The machine-readable report: the run report as is, plus the next step an agent should take. */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify({ ...report, next: nextStep(report) }, null, 2)}\n`;
}
