import { readFileSync } from 'node:fs';
import { evidenceHolds, evidencePath, type StampEvidence } from './stamp-evidence.js';
import type { GitResult } from './stamp-git.js';
import type { RepoFiles } from './stamp-repo-files.js';

/**
 * The saved evidence of the repository `files` describes when it holds (`evidenceHolds`), with the git results it
 * recorded; undefined when there is none, it is not whole, or it does not hold. Its signature is not checked here
 * (that needs node:crypto, loaded later): `signed` is the object read and `text` the file's text, for the caller to
 * check (`checkSignatureOfText`).
 */
export function readSavedEvidence(
  files: RepoFiles,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { results: GitResult[]; signed: Record<string, unknown>; text: string } | undefined {
  let text: string;
  let value: unknown;
  try {
    text = readFileSync(evidencePath(files.top), 'utf8');
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isEvidence(value) || !evidenceHolds(value, files, cwd, env)) return undefined;
  const results = [
    { code: 0, stdout: value.status },
    { code: value.filtersCode, stdout: value.filters },
  ];
  return { results, signed: value as unknown as Record<string, unknown>, text };
}

function isEvidence(value: unknown): value is StampEvidence {
  const evidence = value as Partial<StampEvidence> | null;
  return (
    typeof evidence === 'object' &&
    evidence !== null &&
    typeof evidence.env === 'string' &&
    typeof evidence.refs === 'string' &&
    typeof evidence.status === 'string' &&
    typeof evidence.filters === 'string' &&
    (evidence.filtersCode === 0 || evidence.filtersCode === 1) &&
    Array.isArray(evidence.watched) &&
    evidence.watched.every(
      (pair) => Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string',
    ) &&
    // Each entry's fields are compared with `===` (evidenceHolds): one of another type never holds.
    Array.isArray(evidence.tracked)
  );
}
