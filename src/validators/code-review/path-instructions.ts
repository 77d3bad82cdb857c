import { readdir } from 'node:fs/promises';
import { posix } from 'node:path';
import picomatch from 'picomatch';
import { parseFrontMatter, splitFrontMatter } from '../../core/front-matter.js';
import { compareText } from '../../core/text-order.js';
import { type InstructionFile, readInstructionFiles } from './instructions.js';

/** Copilot's path-specific instructions: `applyTo` globs in the front matter say which files they are for. */
const PATH_INSTRUCTIONS_DIR = '.github/instructions';
const PATH_INSTRUCTIONS_SUFFIX = '.instructions.md';
/** Instruction files an agent reads for the folder they sit in and everything below it. */
const FOLDER_INSTRUCTION_NAMES = ['AGENTS.md', 'CLAUDE.md'];

export interface ScopedInstructionFile extends InstructionFile {
  /** The changed files it applies to (shown to the reviewer, so it knows where the rules hold). */
  appliesTo: string[];
}

/**
 * The instructions that apply to some changed file, as the agents that wrote them would apply them:
 * `.github/instructions/*.instructions.md` whose `applyTo` globs match a changed path, and `AGENTS.md`/`CLAUDE.md`
 * in a sub-folder that holds a changed file (the root ones are in `code_review.instructions` already). Paths are
 * read through `readInstructionFiles`, so nothing outside the repository is ever sent.
 */
export async function readPathInstructions(
  repoRoot: string,
  changedPaths: readonly string[],
  alreadyRead: ReadonlySet<string>,
): Promise<ScopedInstructionFile[]> {
  const scoped: Array<{ path: string; appliesTo: string[]; strip: boolean }> = [];
  for (const path of await listPathInstructionFiles(repoRoot)) {
    if (alreadyRead.has(path)) continue;
    scoped.push({ path, appliesTo: [], strip: true });
  }
  for (const path of folderInstructionFiles(changedPaths)) {
    if (alreadyRead.has(path)) continue;
    const folder = posix.dirname(path);
    scoped.push({ path, appliesTo: changedPaths.filter((changed) => changed.startsWith(`${folder}/`)), strip: false });
  }
  const files = await readInstructionFiles(
    repoRoot,
    scoped.map((entry) => entry.path),
  );
  const byPath = new Map(files.map((file) => [file.path, file]));
  const result: ScopedInstructionFile[] = [];
  for (const entry of scoped) {
    const file = byPath.get(entry.path);
    if (!file) continue;
    if (!entry.strip) {
      if (entry.appliesTo.length > 0) result.push({ ...file, appliesTo: entry.appliesTo });
      continue;
    }
    const { globs, body } = splitApplyTo(file.text);
    const isMatch = globs.length === 0 ? null : picomatch(globs, { dot: true });
    const matches = isMatch ? changedPaths.filter((path) => isMatch(path)) : [];
    if (matches.length > 0) result.push({ ...file, text: body, appliesTo: matches });
  }
  return result;
}

async function listPathInstructionFiles(repoRoot: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(posix.join(repoRoot, relative), { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory() && depth < 4) await walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(PATH_INSTRUCTIONS_SUFFIX)) found.push(path);
    }
  };
  await walk(PATH_INSTRUCTIONS_DIR, 0);
  return found;
}

/** `AGENTS.md`/`CLAUDE.md` in every folder (below the root) that holds a changed path, nearest last. */
function folderInstructionFiles(changedPaths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of changedPaths) {
    let folder = posix.dirname(path);
    while (folder !== '.' && folder !== '' && !folders.has(folder)) {
      folders.add(folder);
      folder = posix.dirname(folder);
    }
  }
  return [...folders].sort().flatMap((folder) => FOLDER_INSTRUCTION_NAMES.map((name) => `${folder}/${name}`));
}

/** Pure: the `applyTo` globs of a path-specific instructions file (a comma-separated string or a list) and its body. */
export function splitApplyTo(text: string): { globs: string[]; body: string } {
  const { yaml, body } = splitFrontMatter(text);
  if (yaml === null) return { globs: [], body };
  let front: unknown;
  try {
    front = parseFrontMatter(yaml);
  } catch {
    return { globs: [], body };
  }
  const applyTo = (front as { applyTo?: unknown } | null)?.applyTo;
  const raw = typeof applyTo === 'string' ? applyTo.split(',') : Array.isArray(applyTo) ? applyTo : [];
  const globs = raw.filter((glob): glob is string => typeof glob === 'string').map((glob) => glob.trim());
  return { globs: globs.filter((glob) => glob !== ''), body };
}
