import { join } from 'node:path';
import type { LimitFunction } from 'p-limit';
import { streamLog } from '../agent-call.js';
import type { AnalysisSlot } from '../analysis-call.js';
import { type ChallengeResult, challengeVerdictOf } from '../challenge-answer.js';
import { runChallenge } from '../challenge-call.js';
import { challengePrompt } from '../prompts.js';
import { CHALLENGER_SKILLS_FOLDER, copySkills } from '../skills.js';
import { diagnostics } from './diagnostics.js';
import type { AlertSession } from './types.js';

/** Stage 5: one challenge per report, by another CLI where there is one; a slot without a report is skipped. */
export async function runChallenges(
  session: AlertSession,
  slots: readonly AnalysisSlot[],
  limit: LimitFunction,
): Promise<Map<number, ChallengeResult>> {
  const { writer, pool } = session;
  const challenges = new Map<number, ChallengeResult>();
  await Promise.all(
    slots.map((slot) =>
      limit(async () => {
        const dir = `challenge-${slot.index}`;
        if (slot.report === null) {
          const result: ChallengeResult = {
            status: 'skipped',
            reasoning: `analysis ${slot.index} has no report (${slot.status})`,
          };
          challenges.set(slot.index, result);
          await writer.writeJson(`${dir}.json`, result);
          return;
        }
        const adapter = pool.healthy[(slot.index + 1) % pool.healthy.length]!;
        await copySkills(session.skills.challenger, slot.workspace, CHALLENGER_SKILLS_FOLDER);
        session.progress.start(`challenge of analysis ${slot.index}`, adapter.name);
        const { result, call } = await runChallenge({
          adapter,
          settings: session.settingsOf(adapter, 'challenger'),
          workspace: slot.workspace,
          prompt: challengePrompt({
            subject: session.subject,
            index: slot.index,
            workspace: slot.workspace,
            report: session.redact(slot.report),
            skills: session.skills.challenger,
            role: session.definitions.challenger.instructions,
          }),
          timeoutMs: session.config.timeouts.challenge,
          env: session.agentEnv,
        });
        await session.onUsageLimit({
          adapter,
          status: call.outcome,
          ...(call.message ? { message: call.message } : {}),
        });
        session.progress.end(
          `challenge of analysis ${slot.index}`,
          result.status === 'answered' ? result.verdict : `${result.status}: ${challengeVerdictOf(result) ?? 'none'}`,
        );
        challenges.set(slot.index, result);
        await writer.write(join(dir, 'stream.log'), streamLog([call]));
        await writer.writeJson(`${dir}.json`, { agent: adapter.name, ...result });
        if (session.options.showUsage) await writer.writeJson(join(dir, 'diagnostics.json'), diagnostics([call], null));
      }),
    ),
  );
  return challenges;
}
