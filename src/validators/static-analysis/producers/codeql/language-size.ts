import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolContext } from '../../../../core/pipeline/tool.js';
import { type CodeqlLanguage, codeqlLanguageOf } from './languages.js';

/**
 * Bytes of source per CodeQL language in the work tree (tracked and untracked-but-not-ignored files), counted only
 * up to `cap` per language: past it, the exact size no longer matters.
 */
export async function sourceSizes(
  ctx: Pick<ToolContext<unknown, unknown>, 'repoRoot' | 'runProcess'>,
  languages: readonly CodeqlLanguage[],
  cap: number,
): Promise<Map<CodeqlLanguage, number> | { problem: string }> {
  const listed = await ctx.runProcess('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ctx.repoRoot,
    timeoutMs: 60_000,
    maxOutputBytes: 256 * 1024 * 1024,
  });
  if (listed.exitCode !== 0)
    return { problem: `git ls-files failed: ${listed.stderr.trim() || listed.spawnError?.message}` };
  const sizes = new Map<CodeqlLanguage, number>(languages.map((language) => [language, 0]));
  const seen = new Set<string>();
  for (const path of listed.stdout.split('\0')) {
    if (path === '' || seen.has(path)) continue;
    seen.add(path);
    const language = codeqlLanguageOf(path);
    if (language === null || !sizes.has(language)) continue;
    const total = sizes.get(language)!;
    if (total > cap) continue;
    const info = await lstat(join(ctx.repoRoot, path)).catch(() => null);
    if (info?.isFile()) sizes.set(language, total + info.size);
  }
  return sizes;
}
