import type { ChangeSetBase } from './types.js';

/**
 * The base in words for a person (`tollgate policy status`, the report's line about a pinned base): how it was
 * chosen and what moves it. Pure: everything comes from the base as resolution and pinning left it (pin-base.ts).
 */

/** The remote branch the base follows (`origin/main`), when resolution found it on a remote-tracking ref. */
export function remoteBranchOf(base: ChangeSetBase): string | null {
  if (base.refName?.startsWith('refs/remotes/') && base.ref) return base.ref;
  const pinned = base.pinned;
  if (pinned?.resolvedRefName?.startsWith('refs/remotes/') && pinned.resolvedRef) return pinned.resolvedRef;
  return null;
}

/** How the base was chosen, as a phrase after "base X: ". */
export function howBaseWasChosen(base: ChangeSetBase): string {
  switch (base.source) {
    case 'flag':
      return `named by \`--base ${base.ref}\``;
    case 'config':
      return `the config's \`base: ${base.ref}\``;
    case 'upstream':
      return `the merge-base of HEAD with \`${base.ref}\`, the branch's upstream`;
    case 'default-branch':
      return `the merge-base of HEAD with \`${base.ref}\`, the default branch (the branch has no upstream)`;
    case 'head':
      return 'HEAD itself (no upstream and no default branch): only uncommitted work is the change';
    case 'empty':
      return 'none: the repository has no commit yet';
    case 'pinned':
      return pinnedReason(base);
  }
}

/** What would move the base, as a phrase after "moved by: ". */
export function whatMovesBase(base: ChangeSetBase): string {
  const passing = 'a passing `tollgate run` (the commits it validated are trusted)';
  switch (base.source) {
    case 'flag':
      return 'the `--base` you name';
    case 'config':
      return `\`${base.ref}\` moving (the base config's \`base:\`)`;
    case 'empty':
      return 'the first commit';
    case 'head':
      return 'a commit';
    default: {
      // No fetch counts locally: the remote URL, the reflog and FETCH_HEAD are all the change's to write (docs/gate.md).
      const remote = remoteBranchOf(base);
      if (remote)
        return `${passing}; a fetch alone never moves it: after one, \`${remote}\` is the base again once a run passes`;
      const branch = base.pinned?.resolvedRef ?? base.ref;
      return `${passing}; \`${branch}\` follows no remote branch`;
    }
  }
}

/** The report's one line about a pinned base: why commits are still part of the change, and what moves the base. */
export function pinnedBaseLine(base: ChangeSetBase): string | null {
  if (!base.pinned) return null;
  const at = base.commit ? `\`${base.commit.slice(0, 10)}\`` : 'none';
  return `Base ${at}: ${pinnedReason(base)}. Moved by ${whatMovesBase(base)}.`;
}

function pinnedReason(base: ChangeSetBase): string {
  const pinned = base.pinned!;
  const resolved = `\`${pinned.resolvedRef ?? 'the resolved base'}\` (${pinned.resolvedCommit.slice(0, 10)})`;
  const count = `${pinned.unvalidated} commit${pinned.unvalidated === 1 ? '' : 's'}`;
  const they = pinned.unvalidated === 1 ? 'it is' : 'they are';
  if (base.commit === null) {
    return `no commit in this history was validated by a passing run, so all ${count} up to ${resolved} are the change`;
  }
  return `the newest commit tollgate trusts; the ${count} after it up to ${resolved} no passing run validated, so ${they} part of the change`;
}
