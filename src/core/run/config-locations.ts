import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { locateConfigFile } from '../config/locate-file.js';

/** The config file and the line that defines each check (`name: …` in `checks:`): where a fileless finding points. */
export interface ConfigLocations {
  configFile: string;
  configLines: Record<string, number>;
}

/** Reads `file` (repo-relative) for the line of each `name:`; an unreadable file gives no lines. */
export async function configLocations(repoRoot: string, file: string): Promise<ConfigLocations> {
  const configLines: Record<string, number> = {};
  const text = await readFile(resolve(repoRoot, file), 'utf8').catch(() => '');
  text.split('\n').forEach((line, index) => {
    const match = /^\s*-?\s*name:\s*(?:"([^"]*)"|'([^']*)'|(.+?))\s*(?:#.*)?$/.exec(line);
    const name = match?.[1] ?? match?.[2] ?? match?.[3];
    if (name !== undefined && configLines[name] === undefined) configLines[name] = index + 1;
  });
  return { configFile: file, configLines };
}

/** The locations in the repository's own config file (as `loadConfig` finds it); null outside the repository. */
export async function repoConfigLocations(repoRoot: string, env: NodeJS.ProcessEnv): Promise<ConfigLocations | null> {
  const location = await locateConfigFile({ repoRoot, cwd: repoRoot, env }).catch(() => null);
  if (!location || isAbsolute(location.label)) return null;
  return configLocations(repoRoot, location.label);
}
