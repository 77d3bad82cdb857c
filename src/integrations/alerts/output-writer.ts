import { lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { TollgateError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import type { Redact } from './mask.js';

/** Files larger than this are not rewritten by `scrubTree` (agent-made binaries, archives). */
const MAX_SCRUB_BYTES = 5 * 1024 * 1024;

/**
 * The one writer of validate-alert: every file under the alert folder and every message goes through it, masked by
 * the same `Redact`. Paths are checked to stay inside the alert folder (an agent-controlled name cannot climb out).
 */
export class AlertWriter {
  constructor(
    /** `<out>/<owner>/<repo>/<alert_id>/`, absolute. */
    readonly root: string,
    readonly redact: Redact,
  ) {}

  /** Absolute path of `path` (relative to the alert folder, or absolute inside it); refuses anything outside. */
  resolve(path: string): string {
    const absolute = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    if (absolute !== this.root && !absolute.startsWith(this.root + sep)) {
      throw new TollgateError('io', `${path}: refusing to write outside ${this.root}`);
    }
    return absolute;
  }

  async write(path: string, text: string): Promise<string> {
    const target = this.resolve(path);
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFileAtomic(target, this.redact(text), { mode: 0o600, label: relative(this.root, target) || path });
    return target;
  }

  writeJson(path: string, value: unknown): Promise<string> {
    return this.write(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line for the terminal or an error: masked. */
  message(text: string): string {
    return this.redact(text);
  }

  async remove(path: string): Promise<void> {
    await rm(this.resolve(path), { recursive: true, force: true });
  }

  /**
   * Masks, in place, every text file an agent left under `dir` (scripts, logs, artifacts, its own report), skipping
   * the folders named in `skip` (the repository copies, which are the repository's own content) and symlinks.
   */
  async scrubTree(dir: string, skip: readonly string[] = ['repo', '.git', '_shared_repo']): Promise<void> {
    const base = this.resolve(dir);
    const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(base, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (!skip.includes(entry.name)) await this.scrubTree(path, skip);
        continue;
      }
      if (!entry.isFile()) continue;
      const info = await lstat(path);
      if (info.size > MAX_SCRUB_BYTES) continue;
      const bytes = await readFile(path);
      if (bytes.includes(0)) continue;
      const text = bytes.toString('utf8');
      const masked = this.redact(text);
      if (masked !== text) await writeFileAtomic(path, masked, { mode: info.mode & 0o777 });
    }
  }
}
