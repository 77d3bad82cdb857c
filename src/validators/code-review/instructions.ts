import { open, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export interface InstructionFile {
  path: string;
  text: string;
  truncated: boolean;
  /** Set for path-specific instructions: the changed files they apply to. */
  appliesTo?: string[];
}

const MAX_INSTRUCTION_BYTES = 16 * 1024;

/**
 * Reads the repository's review instructions (`.tollgate/review.md`, `AGENTS.md`, …) that exist. A path that resolves
 * outside the repository (a symlink) is ignored: its content would go to a third-party model.
 */
export async function readInstructionFiles(repoRoot: string, paths: readonly string[]): Promise<InstructionFile[]> {
  const root = await realpath(repoRoot);
  const files: InstructionFile[] = [];
  for (const path of paths) {
    const real = await realpath(join(root, path)).catch(() => null);
    if (real === null) continue;
    const inside = relative(root, real);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..') continue;
    const text = await readCapped(real).catch(() => null);
    if (text === null || text.text.trim() === '') continue;
    files.push({ path, ...text });
  }
  return files;
}

async function readCapped(path: string): Promise<{ text: string; truncated: boolean }> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_INSTRUCTION_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const truncated = bytesRead > MAX_INSTRUCTION_BYTES;
    return { text: buffer.subarray(0, Math.min(bytesRead, MAX_INSTRUCTION_BYTES)).toString('utf8'), truncated };
  } finally {
    await handle.close();
  }
}
