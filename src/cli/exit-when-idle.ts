/**
 * Ends the process, with the exit code already set, once Node has nothing left to do (`beforeExit`: no pending write,
 * child or timer), instead of returning from the event loop. Returning makes Node dispose of V8's heap before it
 * exits: every page of it unmapped one at a time (a first `run` on 2,000 changed files holds about 50 MB), which the
 * kernel's own teardown at exit then does again for the whole address space. `process.exit` skips the first and still
 * runs every `exit` handler (the code cache's write, the private folders' removal). Measured on a first run: about 3 %
 * of the process tree's CPU (docs/benchmarks.md, session 25).
 */
export function exitWhenIdle(proc: Pick<NodeJS.Process, 'once' | 'exit'> = process): void {
  proc.once('beforeExit', () => proc.exit());
}
