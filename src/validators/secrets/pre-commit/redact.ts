import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TollgateError } from '../../../core/errors.js';
import { runProcess } from '../../../core/process.js';
import type { RawSecret } from '../../../secrets/scanner.js';

/**
 * Replaces each secret in the staged blob and in the working file with `<REDACTED:rule-id>`, after saving the
 * original bytes of both under `.git/tollgate/redacted/<time>/` with mode 0600. Runs only when the user turned
 * `secrets.redactAfterAttempts` on and allowed `permissions.writeFiles`.
 */
export interface RedactFile {
  path: string;
  stagedText: string;
  secrets: readonly RawSecret[];
}

export interface RedactOptions {
  repoRoot: string;
  backupDir: string;
  env?: NodeJS.ProcessEnv;
}

function redactText(text: string, secrets: readonly RawSecret[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, secret.start)}<REDACTED:${secret.rule.id}>${out.slice(secret.end)}`;
  }
  return out;
}

async function git(options: RedactOptions, args: string[], input?: string): Promise<string> {
  const result = await runProcess('git', args, {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    ...(input === undefined ? {} : { input }),
    timeoutMs: 60_000,
  });
  if (result.exitCode !== 0)
    throw new TollgateError('io', `git ${args[0]} failed: ${result.stderr.trim().split('\n')[0]}`);
  return result.stdout;
}

async function backup(path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, content, { mode: 0o600 });
  await chmod(path, 0o600);
}

export async function redactStaged(files: readonly RedactFile[], options: RedactOptions): Promise<number> {
  let redacted = 0;
  for (const file of files) {
    await backup(join(options.backupDir, 'staged', file.path), file.stagedText);
    const staged = redactText(file.stagedText, file.secrets);
    const blob = (await git(options, ['hash-object', '-w', '--stdin'], staged)).trim();
    const entry = (await git(options, ['ls-files', '-s', '--', file.path])).trim();
    const mode = entry.split(/\s+/)[0] || '100644';
    await git(options, ['update-index', '--cacheinfo', `${mode},${blob},${file.path}`]);
    const working = join(options.repoRoot, file.path);
    const current = await readFile(working, 'utf8').catch(() => null);
    if (current !== null) {
      await backup(join(options.backupDir, 'working', file.path), current);
      let replaced = current;
      for (const secret of file.secrets) replaced = replaced.split(secret.secret).join(`<REDACTED:${secret.rule.id}>`);
      await writeFile(working, replaced);
    }
    redacted += file.secrets.length;
  }
  return redacted;
}
