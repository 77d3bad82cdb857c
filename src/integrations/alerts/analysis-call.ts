import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RegisteredAdapter } from '../../agents/index.js';
import type { AgentSettings } from '../../agents/types.js';
import { type AgentCallRecord, callAgent } from './agent-call.js';
import { continuationPrompt } from './prompts.js';
import { parseReport, REPORT_SECTIONS } from './report.js';

/** How one analysis slot ended. `completed` has a report; the others may still carry a partial one. */
export type AnalysisStatus =
  | 'completed'
  | 'timeout'
  | 'failed'
  | 'usage_limit'
  | 'rate_limited'
  | 'not_logged_in'
  | 'not_installed'
  | 'aborted';

export interface AnalysisSlot {
  index: number;
  adapter: RegisteredAdapter;
  workspace: string;
  status: AnalysisStatus;
  /** Raw (unmasked, in memory only) report text: `report.md` if the agent wrote one, else its final answer. */
  report: string | null;
  message?: string;
  calls: AgentCallRecord[];
  continuations: number;
}

export interface RunAnalysisOptions {
  index: number;
  /** How many analyses compete (for the continuation marker). */
  count: number;
  adapter: RegisteredAdapter;
  settings: AgentSettings;
  workspace: string;
  prompt: string;
  timeoutMs: number;
  minResponseLength: number;
  maxContinuationAttempts: number;
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

/** Pure: what a report still lacks, for the continuation prompt; empty when it is complete enough. */
function reportProblems(report: string | null, minLength: number): string[] {
  const text = report?.trim() ?? '';
  if (text.length < minLength) {
    return [`the report is ${text.length} characters, shorter than the ${minLength} expected (write the full report)`];
  }
  const headings = new Set(parseReport(text).headings.map((heading) => heading.toLowerCase()));
  const missing = REPORT_SECTIONS.filter((section) => !headings.has(section.toLowerCase()));
  return missing.length > 0 ? [`the sections ${missing.join(', ')}`] : [];
}

/**
 * One analysis: the first prompt, then up to `maxContinuationAttempts` continuations while the report is too short
 * or lacks required sections, all within one deadline (a stuck agent ends as `timeout`, its group killed). CLIs that
 * can resume a session get the continuation in the same session; the others get it with their prior output.
 */
export async function runAnalysis(options: RunAnalysisOptions): Promise<AnalysisSlot> {
  const now = options.now ?? Date.now;
  const deadline = now() + options.timeoutMs;
  const sessionId = randomUUID();
  const slot: AnalysisSlot = {
    index: options.index,
    adapter: options.adapter,
    workspace: options.workspace,
    status: 'failed',
    report: null,
    calls: [],
    continuations: 0,
  };
  let prompt = options.prompt;
  for (let attempt = 0; attempt <= options.maxContinuationAttempts; attempt++) {
    const remaining = deadline - now();
    if (remaining <= 0) {
      slot.status = 'timeout';
      slot.message = `no complete report within ${Math.round(options.timeoutMs / 1000)} s`;
      break;
    }
    const resume = attempt > 0 && options.adapter.analysisSession === 'resume';
    const { outcome, record } = await callAgent({
      adapter: options.adapter,
      settings: options.settings,
      prompt,
      cwd: options.workspace,
      purpose: 'analysis',
      timeoutMs: remaining,
      env: options.env,
      sessionId,
      resume,
    });
    slot.calls.push(record);
    const written = await readFile(join(options.workspace, 'report.md'), 'utf8').catch(() => null);
    if (outcome.kind !== 'answer') {
      slot.status = outcome.kind;
      slot.message = outcome.message;
      if (written?.trim()) slot.report = written;
      break;
    }
    slot.report = written?.trim() ? written : outcome.text;
    slot.status = 'completed';
    const problems = reportProblems(slot.report, options.minResponseLength);
    if (problems.length === 0 || attempt === options.maxContinuationAttempts) break;
    slot.continuations++;
    prompt = continuationPrompt({
      slot: `${options.index}/${options.count}`,
      problems,
      ...(options.adapter.analysisSession === 'resume'
        ? {}
        : { carryOver: { prompt: options.prompt, priorOutput: outcome.text } }),
    });
  }
  return slot;
}

/** Files of a workspace (POSIX, relative) → size, without the repository copy: the evidence evals read this. */
export async function listWorkspaceFiles(workspace: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (prefix === '' && (entry.name === 'repo' || entry.name === '.git')) continue;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(join(dir, entry.name), rel);
      else if (entry.isFile()) files.set(rel, (await stat(join(dir, entry.name))).size);
    }
  };
  await walk(workspace, '');
  return files;
}
