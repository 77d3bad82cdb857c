import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectFiles } from './candidate.js';
import { DETECTION_FILES } from './detect-checks.js';

/** A build file larger than this is not one a person wrote by hand; detection skips it. */
const MAX_BYTES = 1024 * 1024;

/**
 * The root-level files detection looks at: the texts of the build files, the presence of the lockfiles (never their
 * contents). A file that is missing, a folder, too large or unreadable is simply not there.
 */
export async function readProjectFiles(repoRoot: string): Promise<ProjectFiles> {
  const files = new Map<string, string>();
  const texts = await Promise.all(
    DETECTION_FILES.read.map(async (name) => {
      const path = join(repoRoot, name);
      const info = await stat(path).catch(() => null);
      if (!info?.isFile() || info.size > MAX_BYTES) return undefined;
      return readFile(path, 'utf8').catch(() => undefined);
    }),
  );
  DETECTION_FILES.read.forEach((name, index) => {
    const text = texts[index];
    if (text !== undefined) files.set(name, text);
  });
  const present = await Promise.all(
    DETECTION_FILES.present.map((name) =>
      stat(join(repoRoot, name)).then(
        (info) => info.isFile(),
        () => false,
      ),
    ),
  );
  DETECTION_FILES.present.forEach((name, index) => {
    if (present[index]) files.set(name, '');
  });
  return files;
}
