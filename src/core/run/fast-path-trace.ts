/**
 * `TOLLGATE_TRACE_FAST_PATH=1`: each small bundle says on stderr whether it answered from its saved result or handed
 * the command to the whole CLI, and why. For tests and for a person wondering why a repeat run was slow; the tree
 * stamps leave this one variable out, so tracing does not change what it traces.
 */
export const FAST_PATH_TRACE_VARIABLE = 'TOLLGATE_TRACE_FAST_PATH';

export function traceFastPath(env: NodeJS.ProcessEnv, line: string): void {
  if (env[FAST_PATH_TRACE_VARIABLE] === '1') process.stderr.write(`tollgate: fast path: ${line}\n`);
}
