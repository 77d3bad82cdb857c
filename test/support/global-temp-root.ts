import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every temp file of the run (tests, the CLI's code cache, git, npm) goes under one private
 * TMPDIR, removed at the end, so `npm test` leaves nothing behind in the machine's /tmp. What a test forgot to remove
 * is named on stderr, so the leak gets fixed where it is made. The CLI's code cache (bin/tollgate.cjs) is one folder
 * there too, shared by every test's CLI runs, whatever HOME a test gives them.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-test-run-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  // tollgate signs its state with a per-user key kept under HOME: the tests' own key, never the developer's.
  const previousKey = process.env.TOLLGATE_STATE_KEY_FILE;
  process.env.TOLLGATE_STATE_KEY_FILE = join(root, 'state-key', 'state.key');
  const previousCache = process.env.TOLLGATE_CACHE_DIR;
  process.env.TOLLGATE_CACHE_DIR = join(root, 'code-cache');
  // A host's extra CA bundle (some set one for a proxy) is parsed by every Node process at start: tens of milliseconds
  // of CPU for each of the thousands of node children the tests start (the CLI, fake agents, fake analyzers, npm). No
  // test reaches a real TLS server; the ones about NODE_EXTRA_CA_CERTS set their own.
  const previousCa = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
  return () => {
    // npm on Node 22 and later keeps its own compile cache in TMPDIR (test/node-versions/run.sh).
    const left = readdirSync(root).filter(
      (name) => name !== 'code-cache' && name !== 'state-key' && name !== 'node-compile-cache',
    );
    if (left.length > 0) {
      process.stderr.write(
        `tests left ${left.length} temp entr(ies) behind (removed now): ${left.slice(0, 10).join(', ')}\n`,
      );
    }
    rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousKey === undefined) delete process.env.TOLLGATE_STATE_KEY_FILE;
    else process.env.TOLLGATE_STATE_KEY_FILE = previousKey;
    if (previousCache === undefined) delete process.env.TOLLGATE_CACHE_DIR;
    else process.env.TOLLGATE_CACHE_DIR = previousCache;
    if (previousCa !== undefined) process.env.NODE_EXTRA_CA_CERTS = previousCa;
  };
}
