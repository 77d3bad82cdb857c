import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RELOCATING_ENV } from './work-tree-here.js';

/** A work tree root and the index git uses for it: what a guess names and what `git add` needs. */
export interface WorkTreeIndex {
  root: string;
  indexPath: string;
}

/**
 * Where the work tree and its index probably are, from the nearest `.git` folder or file above `cwd`, without running
 * git; null when the environment relocates them. Only a head start: the caller checks it against `locateRepo`, which
 * knows for sure (saving one git call from the start of every run).
 */
export function guessRepo(cwd: string): WorkTreeIndex | null {
  if (RELOCATING_ENV.some((name) => process.env[name] !== undefined)) return null;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    try {
      const stats = statSync(dotGit);
      if (stats.isDirectory()) return { root: dir, indexPath: join(dotGit, 'index') };
      // A linked worktree or a submodule: `.git` is a file that points at the real git folder.
      const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      return pointer?.[1] ? { root: dir, indexPath: join(resolve(dir, pointer[1]), 'index') } : null;
    } catch {
      // No `.git` here; keep climbing.
    }
    if (dirname(dir) === dir) return null;
  }
}
