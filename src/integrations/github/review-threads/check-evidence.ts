import type { TollgateConfig } from '../../../core/config/schema.js';
import { runProcess } from '../../../core/process.js';
import { changeSetForRun } from '../../../core/run/change-set-for-run.js';
import { lastVerdictFor } from '../../../core/state/results-store.js';
import type { CheckEvidence, CommitInHead } from './fix-policy.js';

/** Where check evidence comes from; tests replace it, `createRunEvidence` reads tollgate's own stored runs. */
export interface EvidenceSource {
  forHead(headSha: string): Promise<CheckEvidence>;
  commitInHead(commitSha: string, headSha: string): Promise<CommitInHead>;
}

/**
 * Evidence from the last `tollgate run` on the pushed commit. The store keys runs by change-set fingerprint (not
 * by commit), so the run is found by rebuilding the change set here: this only vouches for the PR head when the
 * local HEAD is that commit and the work tree is clean, so that the tree the run saw is the pushed tree.
 */
export function createRunEvidence(options: {
  repoRoot: string;
  config: TollgateConfig;
  env: NodeJS.ProcessEnv;
}): EvidenceSource {
  const { repoRoot, config, env } = options;
  const git = (...args: string[]) => runProcess('git', args, { cwd: repoRoot, env, timeoutMs: 60_000 });
  const cache = new Map<string, Promise<CheckEvidence>>();

  const lookUp = async (headSha: string): Promise<CheckEvidence> => {
    const head = await git('rev-parse', 'HEAD');
    const local = head.stdout.trim();
    if (head.exitCode !== 0) return { status: 'unknown', detail: 'could not read the local HEAD' };
    const short = headSha.slice(0, 12);
    if (local.toLowerCase() !== headSha.toLowerCase()) {
      return {
        status: 'not_head',
        detail: `the local HEAD ${local.slice(0, 12)} is not the pushed PR head ${short}; check out the pushed commit and run \`tollgate run\``,
      };
    }
    const status = await git('status', '--porcelain', '--untracked-files=normal');
    if (status.exitCode !== 0) return { status: 'unknown', detail: 'could not read the work tree status' };
    if (status.stdout.trim() !== '') {
      return {
        status: 'not_head',
        detail: `the work tree has uncommitted changes, so no run vouches for the pushed commit ${short} alone; commit and push, then run \`tollgate run\``,
      };
    }
    // Built as every run builds it, so that the fingerprint is the one a run stored.
    const changeSet = await changeSetForRun(repoRoot, config);
    const verdict = await lastVerdictFor(repoRoot, changeSet.fingerprint, { includePartial: true });
    if (!verdict) {
      return { status: 'missing', detail: `no \`tollgate run\` is recorded for the pushed commit ${short}; run it` };
    }
    if (!verdict.complete) {
      return {
        status: 'incomplete',
        detail: `the last run on ${short} (${verdict.runId}) was partial (--only/--skip or cut short); run \`tollgate run\` in full`,
      };
    }
    if (verdict.verdict !== 'passed') {
      return {
        status: 'failed',
        detail: `the last \`tollgate run\` on ${short} (${verdict.runId}) failed; fix it first`,
      };
    }
    return { status: 'passed', runId: verdict.runId, at: verdict.at };
  };

  return {
    forHead(headSha) {
      let pending = cache.get(headSha);
      if (!pending) {
        pending = lookUp(headSha).catch(
          (error: unknown): CheckEvidence => ({
            status: 'unknown',
            detail: `could not look up the last run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
          }),
        );
        cache.set(headSha, pending);
      }
      return pending;
    },
    async commitInHead(commitSha, headSha) {
      const result = await git('merge-base', '--is-ancestor', commitSha, headSha);
      if (result.exitCode === 0) return 'yes';
      if (result.exitCode === 1) return 'no';
      return 'unknown';
    },
  };
}
