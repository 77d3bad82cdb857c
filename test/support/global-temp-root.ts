import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every temp file of the run (tests, the CLI's code cache, git, npm) goes under one private
 * TMPDIR, removed at the end, so `npm test` leaves nothing behind in the machine's /tmp. What a test forgot to remove
 * is named on stderr, so the leak gets fixed where it is made.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-test-run-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root).filter((name) => !name.startsWith('tollgate-code-cache-'));
    if (left.length > 0) {
      process.stderr.write(
        `tests left ${left.length} temp entr(ies) behind (removed now): ${left.slice(0, 10).join(', ')}\n`,
      );
    }
    rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
