import type { RunReport } from '../core/run/run-report.js';
import { nextStep } from './next-step.js';

/** The machine-readable report: the run report as is, plus the next step an agent should take. */
export function renderJson(report: RunReport): string {
  return `${JSON.stringify({ ...report, next: nextStep(report) }, null, 2)}\n`;
}
