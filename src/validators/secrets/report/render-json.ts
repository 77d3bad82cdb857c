import type { SecretScanReport } from './scan-report.js';

export function renderScanJson(report: SecretScanReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
