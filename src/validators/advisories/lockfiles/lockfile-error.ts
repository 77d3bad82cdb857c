/** A lockfile tollgate cannot read; the message says what is wrong in it (the caller adds the path). */
export class LockfileError extends Error {
  override name = 'LockfileError';
}

export function parseJsonLockfile(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LockfileError(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
