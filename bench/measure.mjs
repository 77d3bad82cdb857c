import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

// Shared by the bench scripts: medians and one output shape (a human line, and a JSON line with --json).
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function printResult({ name, line, values }) {
  console.log(line);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ bench: name, ...values }));
}

/**
 * A path that is git's own storage, not a project's source: a pack, its index or reverse index, a loose object, a
 * nested repository's folder. A corpus holding one measures how compressed bytes scan, not how source does.
 */
export function isGitStorage(path) {
  return /(^|\/)\.git(\/|$)|(^|\/)objects\/(pack\/|[0-9a-f]{2}\/[0-9a-f]{38,62}$)|\.(pack|idx|rev|bitmap)$/.test(path);
}

/**
 * Fails loudly (throws, so the bench exits non-zero and `npm run bench` says so) when a corpus folder holds anything
 * that is not source: git's storage (see isGitStorage) or a file with a NUL byte in its first 8 KB. `repository`: the
 * folder is a work tree whose top-level .git (the repository) and .tollgate (tollgate's state) are not the corpus. `binary: false` lets
 * binary files pass (a real project's images), refusing only git's storage.
 */
export function assertSourceCorpus(dir, { repository = false, binary = true } = {}) {
  const bad = [];
  const buffer = Buffer.alloc(8192);
  const walk = (folder, relative) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      // A work tree's own repository and tollgate's state folder are not the change being measured.
      if (repository && (path === '.git' || path === '.tollgate')) continue;
      if (isGitStorage(path)) bad.push(`${path} (git storage)`);
      else if (entry.isDirectory()) walk(join(folder, entry.name), path);
      else if (binary && entry.isFile()) {
        const fd = openSync(join(folder, entry.name), 'r');
        try {
          const read = readSync(fd, buffer, 0, buffer.length, 0);
          if (buffer.subarray(0, read).includes(0)) bad.push(`${path} (binary: a NUL byte)`);
        } finally {
          closeSync(fd);
        }
      }
      if (bad.length >= 5) return;
    }
  };
  walk(dir, '');
  if (bad.length > 0) throw new Error(`corpus ${dir} holds what is not source: ${bad.join(', ')}`);
}

/** The same for a history: no path any commit of `range` touches may be git's own storage. */
export function assertSourceHistory(repo, range, env = process.env) {
  const result = spawnSync('git', ['log', '--format=', '--name-only', '--no-renames', range], {
    cwd: repo,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`git log ${range} in ${repo}: ${result.stderr.trim()}`);
  const bad = [...new Set(result.stdout.split('\n').filter((path) => path !== '' && isGitStorage(path)))];
  if (bad.length > 0)
    throw new Error(`history ${repo} ${range} holds what is not source: ${bad.slice(0, 5).join(', ')} (git storage)`);
}
