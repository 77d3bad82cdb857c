import { type RunStampStart, startRunStamp } from '../core/run/unchanged-run-start.js';
import type { CliHandoff } from './run-handoff.js';

/**
 * The entry of the repeat run's own small bundle (dist/bundle/cli/run-fast.cjs). Agents run a plain `tollgate run`
 * again and again; when nothing changed since a run that passed by repeating what was already validated (with or
 * without changes since the base), the answer needs a stamp of the tree and a few small modules, not the whole CLI
 * (src/core/run/unchanged-run.ts). Its stamp's git is started first (by bin/tollgate.cjs through fast-start.cjs,
 * `started`, or here), and only then is the rest of the answer loaded (run-fast-answer.ts: hashing, the signed
 * state, the report's renderers), so git works on the other core while Node loads it. Resolves to null once it
 * answered, or to what the full CLI needs.
 */
export async function runFast(argv: readonly string[], started?: RunStampStart): Promise<CliHandoff | null> {
  if (argv.length !== 3 || argv[2] !== 'run') return {};
  const startedAt = Date.now();
  const { saved } = started ?? startRunStamp();
  let answer: typeof import('./run-fast-answer.js');
  try {
    answer = await import('./run-fast-answer.js');
  } catch {
    return {}; // the full CLI decides, and reports whatever went wrong
  }
  return answer.answerRunFast(argv, startedAt, saved);
}
