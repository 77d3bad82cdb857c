import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isSafeRunId, TOLLGATE_DIR, tollgatePaths } from './tollgate-dir.js';

// tollgatePaths spells its paths as the root, a separator and a name: exactly what `join` gives, for any root
// (relative, absolute, with `..`, `.` or repeated and trailing separators) and any run id it accepts.
const segment = fc.oneof(
  fc.constantFrom('', '.', '..', 'a', 'repo', 'with space', '.tollgate'),
  fc.string({ maxLength: 6 }),
);
const root = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.boolean())
  .map(([absolute, parts, trailing]) => `${absolute ? '/' : ''}${parts.join('/')}${trailing ? '/' : ''}`);
const runId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/).filter(isSafeRunId);

test('every path is the one join gives', () => {
  fc.assert(
    fc.property(root, runId, (repoRoot, id) => {
      const paths = tollgatePaths(repoRoot);
      const dir = join(repoRoot, TOLLGATE_DIR);
      expect(paths.root).toBe(dir);
      expect(paths.runsDir).toBe(join(dir, 'runs'));
      expect(paths.statePath).toBe(join(dir, 'state.json'));
      expect(paths.waiversPath).toBe(join(dir, 'waivers.json'));
      expect(paths.waiverEventsPath).toBe(join(dir, 'waivers.events.jsonl'));
      expect(paths.lockPath).toBe(join(dir, 'run.lock'));
      expect(paths.stateLockPath).toBe(join(dir, 'state.lock'));
      expect(paths.cacheDir).toBe(join(dir, 'cache'));
      expect(paths.runDir(id)).toBe(join(dir, 'runs', id));
    }),
    { numRuns: 500 },
  );
});
