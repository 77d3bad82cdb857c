import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolContext } from '../../src/core/pipeline/tool.js';
import { runProcess } from '../../src/core/process.js';

/** What a validator test must say; everything else of a `ToolContext` has a default (see `toolContext`). */
export type ToolContextFields<Options, Input> = Pick<
  ToolContext<Options, Input>,
  'repoRoot' | 'changeSet' | 'options' | 'input'
> &
  Partial<ToolContext<Options, Input>>;

/**
 * The `ToolContext` the pipeline would hand a validator's `run`, for calling it directly: a minute of budget, two
 * workers, no trivial skips, `process.env`, an artifacts folder under `.tollgate/runs/test/`, and the progress lines
 * collected in `progressLines`. Pass any field to replace its default.
 */
export function toolContext<Options, Input>(
  fields: ToolContextFields<Options, Input>,
): ToolContext<Options, Input> & { progressLines: string[] } {
  const progressLines: string[] = [];
  const artifactsDir = fields.artifactsDir ?? join(fields.repoRoot, '.tollgate', 'runs', 'test');
  mkdirSync(artifactsDir, { recursive: true });
  return {
    signal: new AbortController().signal,
    budget: { deadline: Date.now() + 60_000, remainingMs: () => 60_000 },
    concurrency: 2,
    skipTrivial: false,
    env: process.env,
    progress: (message) => progressLines.push(message),
    runProcess: (command, args, options) => runProcess(command, args, options),
    ...fields,
    artifactsDir,
    progressLines,
  };
}
