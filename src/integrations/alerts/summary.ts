import type { AlertVerification } from './types.js';
import type { CallUsage } from './usage.js';

export interface SlotSummary {
  index: number;
  agent: string;
  workspace: string;
  status: string;
  message?: string;
  continuations: number;
  verdict?: string;
  confidence?: number;
  evals: { passed: boolean; score: number; failed: string[] } | null;
  challenge: string | null;
  /** Percent of required skills applied, or null when no skill is required. */
  compliance: number | null;
  /** Whether `compliance` was observed from the agent's tool calls or only self-reported in its checklist. */
  complianceBasis: 'observed' | 'self-reported';
  usage: CallUsage;
}

/** One report of a contested outcome: who said what, and what its challenge found. */
export interface DisagreeingReport {
  report: number;
  agent: string;
  verdict: string;
  confidence: number | null;
  challenge: string | null;
}

/** The `--json` summary of a validate-alert run (also what the text summary is rendered from). */
export interface ValidateAlertSummary {
  repository: string;
  alertId: string;
  source: 'github' | 'local';
  secretType: string;
  verdict: string;
  confidence: number | null;
  confidenceLabel: string | null;
  riskLevel: string | null;
  keyFinding: string | null;
  winner: number | null;
  decidedBy: 'judge' | 'fallback' | 'single' | 'none';
  note?: string;
  /** Set when the winner's challenge was REFUTED and a CONFIRMED report disagrees: why the verdict is INCONCLUSIVE. */
  contested?: string;
  /**
   * With `contested`: what each side said (the refuted pick first). The verdict's own confidence, risk and key finding
   * are then null: the refuted report's numbers are not the INCONCLUSIVE verdict's.
   */
  disagreement?: DisagreeingReport[];
  notes: string[];
  outputDir: string;
  finalReport: string | null;
  /** The outcome as one self-contained HTML page. */
  htmlReport: string;
  /** The provider's answer about the secret, when tollgate asked (`--verify`). */
  verification?: AlertVerification;
  slots: SlotSummary[];
}

/** Pure: the summary as JSON or text, with the usage table when asked. */
export function renderSummary(summary: ValidateAlertSummary, options: { json: boolean; showUsage: boolean }): string {
  if (options.json) return `${JSON.stringify(summary, null, 2)}\n`;
  const lines = [
    `${summary.repository} alert ${summary.alertId} (${summary.secretType}): ${summary.verdict}` +
      (summary.confidence !== null ? `, confidence ${summary.confidence}/10 (${summary.confidenceLabel})` : '') +
      (summary.riskLevel ? `, risk ${summary.riskLevel}` : ''),
  ];
  if (summary.keyFinding) lines.push(`Key finding: ${summary.keyFinding}`);
  if (summary.disagreement) {
    lines.push(`Picked by ${summary.decidedBy}: report ${summary.winner}, refuted, so not the verdict`);
  } else {
    lines.push(
      summary.winner !== null
        ? `Winner: report ${summary.winner} (decided by ${summary.decidedBy})`
        : 'No report: the verdict is INCONCLUSIVE',
    );
  }
  if (summary.note) lines.push(`Note: ${summary.note}`);
  if (summary.contested) lines.push(`Contested: ${summary.contested}`);
  if (summary.disagreement) {
    lines.push('The reports disagree:');
    for (const side of summary.disagreement) {
      const confidence = side.confidence !== null ? `, confidence ${side.confidence}/10` : '';
      lines.push(
        `  report ${side.report} (${side.agent}): ${side.verdict}${confidence}, challenge ${side.challenge ?? 'none'}`,
      );
    }
  }
  for (const note of summary.notes) lines.push(`Note: ${note}`);
  lines.push('', '| # | agent | status | verdict | confidence | evals | challenge |', '|---|---|---|---|---|---|---|');
  for (const slot of summary.slots) {
    const evals = slot.evals ? `${slot.evals.passed ? 'pass' : 'fail'} ${Math.round(slot.evals.score * 100)}%` : '-';
    const status = slot.status + (slot.continuations > 0 ? ` (+${slot.continuations} continuation)` : '');
    lines.push(
      `| ${slot.index} | ${slot.agent} | ${status} | ${slot.verdict ?? '-'} | ${slot.confidence ?? '-'} | ${evals} | ${slot.challenge ?? '-'} |`,
    );
  }
  if (options.showUsage) {
    lines.push(
      '',
      '| # | agent | input tokens | output tokens | cost USD | turns | tool calls |',
      '|---|---|---|---|---|---|---|',
    );
    for (const slot of summary.slots) {
      const u = slot.usage;
      lines.push(
        `| ${slot.index} | ${slot.agent} | ${u.inputTokens ?? '-'} | ${u.outputTokens ?? '-'} | ${u.costUsd ?? '-'} | ${u.turns ?? '-'} | ${u.toolCalls ?? '-'} |`,
      );
    }
  }
  lines.push('', summary.finalReport ? `Final report: ${summary.finalReport}` : `Output: ${summary.outputDir}`);
  return `${lines.join('\n')}\n`;
}
