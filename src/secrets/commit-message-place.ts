/**
 * A secret in a commit message is reported at the message, not at a file: `commit <id> message`, line 1 the subject.
 * Reports that need a file (SARIF, annotations) recognise it by this shape and say so instead.
 */
export function commitMessagePath(commit: string): string {
  return `commit ${commit} message`;
}

/** The commit whose message `path` names, or null when `path` is a file's. */
export function messageCommitOf(path: string): string | null {
  return /^commit ([0-9a-f]{40}|[0-9a-f]{64}) message$/.exec(path)?.[1] ?? null;
}
