import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LimitFunction } from 'p-limit';
import { streamLog } from '../agent-call.js';
import { type AnalysisSlot, listWorkspaceFiles, runAnalysis } from '../analysis-call.js';
import { cloneFull, copyClone } from '../clone.js';
import { type EvalResult, evaluateReport } from '../evals.js';
import { analysisPrompt } from '../prompts.js';
import { ANALYSIS_SKILLS_FOLDER, copySkills } from '../skills.js';
import type { AlertSession } from './types.js';

/** Stage 3: the competing analyses, concurrently, each in a workspace of its own with its own repository copy. */
export async function runAnalyses(session: AlertSession, limit: LimitFunction): Promise<AnalysisSlot[]> {
  const { analyses, pool, subject, writer, gitOptions } = session;
  return Promise.all(
    Array.from({ length: analyses }, (_, position) =>
      limit(async (): Promise<AnalysisSlot> => {
        // Reports are numbered from 1 everywhere a person or an agent reads them: progress, prompts, summary.
        const index = position + 1;
        const adapter = pool.healthy[position % pool.healthy.length]!;
        const workspace = join(session.alertDir, randomUUID());
        for (const dir of ['scripts', 'logs']) await mkdir(join(workspace, dir), { recursive: true, mode: 0o700 });
        const repoCopy = session.sharedRepo
          ? await copyClone(session.sharedRepo, join(workspace, 'repo'), session.cloneUrl, gitOptions)
          : await cloneFull(session.cloneUrl, join(workspace, 'repo'), { ...gitOptions, commits: session.commits });
        if (!repoCopy.ok) session.notes.push(`analysis ${index}: no repository copy (${repoCopy.message})`);
        await copySkills(session.skills.analysis, workspace, ANALYSIS_SKILLS_FOLDER);
        const prompt = analysisPrompt({
          subject,
          workspace,
          index,
          count: analyses,
          hasRepo: repoCopy.ok,
          skills: session.skills.analysis,
          template: session.reportTemplate,
          role: session.definitions.analysis.instructions,
        });
        const task = `analysis ${index}/${analyses}`;
        session.progress.start(task, adapter.name);
        const slot = await runAnalysis({
          index,
          count: analyses,
          adapter,
          settings: session.settingsOf(adapter, 'analysis'),
          workspace,
          prompt,
          timeoutMs: session.options.timeoutMs ?? session.config.timeouts.analysis,
          minResponseLength: session.config.minResponseLength,
          maxContinuationAttempts: session.config.maxContinuationAttempts,
          env: session.agentEnv,
        });
        session.progress.end(
          task,
          slot.continuations > 0 ? `${slot.status} (+${slot.continuations} continuation)` : slot.status,
        );
        await session.onUsageLimit(slot);
        await writer.write(join(workspace, 'stream.log'), streamLog(slot.calls));
        return slot;
      }),
    ),
  );
}

/**
 * Stage 4: each report written (masked) and evaluated. The evals read the raw text, so the check that a report does
 * not repeat the secret can see it; only masked copies reach the disk.
 */
export async function evaluateReports(
  session: AlertSession,
  slots: readonly AnalysisSlot[],
): Promise<Map<number, EvalResult>> {
  const evals = new Map<number, EvalResult>();
  for (const slot of slots) {
    if (slot.report === null) continue;
    await session.writer.write(`report-${slot.index}.md`, slot.report);
    await session.writer.write(join(slot.workspace, 'report.md'), slot.report);
    evals.set(
      slot.index,
      evaluateReport(slot.report, {
        expected: { repository: `${session.subject.owner}/${session.subject.repo}`, alertId: session.subject.alertId },
        workspaceFiles: await listWorkspaceFiles(slot.workspace),
        ...(session.secrets.alertSecret ? { secret: session.secrets.alertSecret } : {}),
      }),
    );
  }
  return evals;
}
