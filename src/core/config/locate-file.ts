import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { TollgateError } from '../errors.js';
import type { Env } from './env-overrides.js';

/** Where tollgate looks for its config at the repository root, in the order `tollgate init` prefers them. */
export const CONFIG_FILE_NAMES = ['tollgate.config.yaml', '.tollgate.yaml'] as const;

export interface ConfigFileLocation {
  /** Absolute path of the file to read. */
  path: string;
  /** How messages name it: repo-relative when inside the repository, else absolute. */
  label: string;
}

/**
 * The config file to read: `TOLLGATE_CONFIG` (relative to `cwd`) when set, else whichever of the names above exists at
 * the repository root. Null when there is none (all defaults). Both names present is an error: one would be ignored.
 */
export async function locateConfigFile(options: {
  repoRoot: string;
  cwd: string;
  env: Env;
}): Promise<ConfigFileLocation | null> {
  const { repoRoot, cwd, env } = options;
  const override = env.TOLLGATE_CONFIG;
  if (override !== undefined && override.trim() !== '') {
    const path = resolve(cwd, override);
    const kind = await fileKind(path);
    if (kind === 'missing') {
      throw new TollgateError('config', `TOLLGATE_CONFIG: no file at ${JSON.stringify(override)} (looked for ${path})`);
    }
    if (kind === 'other') {
      throw new TollgateError(
        'config',
        `TOLLGATE_CONFIG: ${JSON.stringify(override)} is not a file; point it at a YAML file`,
      );
    }
    return { path, label: labelFor(repoRoot, path) };
  }
  const found: string[] = [];
  for (const name of CONFIG_FILE_NAMES) if ((await fileKind(join(repoRoot, name))) !== 'missing') found.push(name);
  if (found.length > 1) {
    throw new TollgateError(
      'config',
      `both ${found.join(' and ')} exist at the repository root; keep one (tollgate reads only one config file)`,
    );
  }
  const name = found[0];
  return name === undefined ? null : { path: join(repoRoot, name), label: name };
}

function labelFor(repoRoot: string, path: string): string {
  const fromRoot = relative(repoRoot, path);
  return fromRoot && !fromRoot.startsWith('..') && !isAbsolute(fromRoot) ? fromRoot : path;
}

async function fileKind(path: string): Promise<'file' | 'missing' | 'other'> {
  try {
    return (await stat(path)).isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return 'missing';
    }
    throw error;
  }
}
