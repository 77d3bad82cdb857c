import type { Env } from '../core/config/env-overrides.js';

/** What a command reads and writes besides its flags; `tollgate` uses the process's, tests pass their own. */
export interface CommandIo {
  cwd: string;
  env: Env;
  write(text: string): void;
}

export function processIo(): CommandIo {
  return { cwd: process.cwd(), env: process.env, write: (text) => void process.stdout.write(text) };
}
