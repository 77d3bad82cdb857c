import { howBaseWasChosen, remoteBranchOf, whatMovesBase } from '../../core/change-set/describe-base.js';
import { createGitRunner } from '../../core/change-set/git.js';
import { CONFIG_FILE_NAMES } from '../../core/config/locate-file.js';
import { openProject } from '../../core/config/open-project.js';
import { TollgateError } from '../../core/errors.js';
import { loadRedactor } from '../../core/pipeline/redact-result.js';
import { type PolicyAcceptance, recordAcceptances } from '../../core/policy/acceptances.js';
import { headTree } from '../../core/policy/base-tree.js';
import { describeConfigEdit } from '../../core/policy/config-edit-effects.js';
import type { EffectivePolicy, PolicyFile } from '../../core/policy/effective-policy.js';
import { whatEndsPendingEdit } from '../../core/policy/pending-edit-advice.js';
import { describePolicyEdit } from '../../core/policy/policy-diff.js';
import type { Reader } from '../../core/reader.js';
import { refuseUnlessPerson, typedOnTerminal } from '../person-at-terminal.js';

/** Each accept round can reveal files the accepted config names; a few rounds cover any real config. */
const MAX_ROUNDS = 5;

export interface LoadedPolicy {
  repoRoot: string;
  policy: EffectivePolicy;
}

export async function loadPolicy(cwd: string, env: NodeJS.ProcessEnv): Promise<LoadedPolicy> {
  const { repoRoot, loaded } = await openProject({ cwd, env });
  if (!loaded.policy || loaded.policy.mode === 'unversioned') {
    throw new TollgateError('usage', 'tollgate policy: not a git repository; the policy comes from its base commit');
  }
  return { repoRoot, policy: loaded.policy };
}

const STATUS_TEXT: Record<PolicyFile['status'], string> = {
  unchanged: 'as in the base',
  changed: "edited: PENDING a person's review (the base's version applies)",
  accepted: 'edited: accepted on this machine',
};

/** Every policy file that exists on either side, with what the gate makes of it; the base, and what moves it. */
export function renderPolicyStatus({ policy }: LoadedPolicy, json: boolean, reader: Reader = 'agent'): string {
  const files = [...policy.files.values()].filter((file) => file.base !== null || file.working !== null);
  const chosen = policy.base
    ? {
        source: policy.base.source,
        ref: policy.base.ref,
        how: howBaseWasChosen(policy.base),
        movedBy: whatMovesBase(policy.base),
      }
    : null;
  if (json) {
    const shown = files.map(({ path, status, base, working }) => ({ path, status, base, working }));
    const edit = policy.configEdit ? { configEdit: policy.configEdit } : {};
    return `${JSON.stringify({ base: policy.baseCommit, mode: policy.mode, chosen, files: shown, ...edit }, null, 2)}\n`;
  }
  const base = policy.baseCommit ? `the base commit ${policy.baseCommit.slice(0, 12)}` : 'no commit yet (defaults)';
  const mode = policy.mode === 'base' ? ' (TOLLGATE_POLICY=base: edits cannot be accepted)' : '';
  const width = Math.max(0, ...files.map((file) => file.path.length));
  const lines = files.flatMap((file) => {
    const line = `  ${file.path.padEnd(width)}  ${STATUS_TEXT[file.status]}`;
    const edit =
      file.status === 'changed' && policy.configEdit && (CONFIG_FILE_NAMES as readonly string[]).includes(file.path);
    return edit ? [line, `  ${' '.repeat(width)}  the edit ${describeConfigEdit(policy.configEdit!)}`] : [line];
  });
  const out = [`policy from ${base}${mode}`, ...(lines.length > 0 ? lines : ['  (no policy files)'])];
  if (chosen) out.push(`base: ${chosen.how}`, `moved by: ${chosen.movedBy}`);
  const pending = policy.pending();
  if (pending.length > 0) {
    const them = pending.length === 1 ? 'it' : 'them';
    const count = `${pending.length} edit${pending.length === 1 ? '' : 's'} pending: runs fail until a person accepts or reverts ${them}`;
    // The command goes to a person at a terminal only: what an agent reads says that a person must act.
    const ends =
      reader === 'person' && policy.mode === 'local'
        ? ` ${whatEndsPendingEdit({ reader, paths: pending.map((file) => file.path), remote: policy.base ? remoteBranchOf(policy.base) : null })}`
        : '';
    out.push(`${count}.${ends}`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * Records that the person at this terminal accepted these exact edits (each file from its base to its working blob),
 * in the signed `.tollgate/policy-accepted.json`; resolves to how many files. `policy accept` calls it after the person
 * typed "accept", `init` after writing the config the person asked for.
 *
 * When the base is pinned below HEAD (commits no run validated yet) and HEAD has the file otherwise, the step from
 * HEAD's version is recorded too: once a run passes, HEAD becomes the base, and the same working copy the person
 * accepted would otherwise be pending again. Either way the gate reads exactly the content the person saw.
 */
export async function recordPersonsAcceptance(
  repoRoot: string,
  files: readonly PolicyFile[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const at = new Date().toISOString();
  const by = env.USER || env.USERNAME || 'unknown';
  const head = await headTree(createGitRunner(repoRoot));
  const headIds = head ? await head.blobIds(files.map((file) => file.path)) : undefined;
  const steps: PolicyAcceptance[] = files.flatMap((file) => {
    const step = { path: file.path, from: file.base, to: file.working, by, at };
    if (!headIds) return [step];
    const fromHead = headIds.get(file.path) ?? null;
    return fromHead === file.base || fromHead === file.working ? [step] : [step, { ...step, from: fromHead }];
  });
  await recordAcceptances(repoRoot, steps);
  return files.length;
}

/** `tollgate policy accept`: show, confirm, record; again for files an accepted config newly names. */
export async function acceptPendingPolicy(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  let accepted = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { repoRoot, policy } = await loadPolicy(cwd, env);
    const pending = policy.pending();
    if (pending.length === 0) break;
    if (policy.mode === 'base') {
      throw new TollgateError(
        'usage',
        'policy accept: refused: TOLLGATE_POLICY=base reads the policy from the base only (as in CI)',
      );
    }
    refuseUnlessPerson('policy accept', env);
    const redact = await loadRedactor();
    for (const file of pending) process.stderr.write(`${redact(describePolicyEdit(file).join('\n'))}\n\n`);
    const confirmed = await typedOnTerminal(
      `Accept ${pending.length} policy edit${pending.length === 1 ? '' : 's'} on this machine? Type "accept" to confirm: `,
      'accept',
    );
    if (!confirmed) throw new TollgateError('usage', 'policy accept: not confirmed; nothing was accepted');
    accepted += await recordPersonsAcceptance(repoRoot, pending, env);
  }
  if (accepted === 0)
    return "no policy edit is pending: the working copy holds the base's policy (or edits already accepted)\n";
  return `accepted ${accepted} policy edit${accepted === 1 ? '' : 's'} on this machine; commit ${accepted === 1 ? 'it' : 'them'} so reviewers see ${accepted === 1 ? 'it' : 'them'}, and in CI the base's policy still applies until merged\n`;
}
