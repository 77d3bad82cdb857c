import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/state/atomic-write.js';

/**
 * What `tollgate install` added, so that `tollgate uninstall` removes exactly that: `~/.tollgate/installed.json`
 * (`$TOLLGATE_HOME` relocates it). Each record names the file and how to find our entry in it.
 */
/** Folders that did not exist before install wrote the file (innermost last); uninstall removes them when empty. */
const createdDirs = z.array(z.string()).default([]);

const recordSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('hook'),
    agent: z.string(),
    scope: z.enum(['project', 'user']),
    file: z.string(),
    layout: z.enum(['nested', 'flat']),
    eventsPath: z.array(z.string()),
    event: z.string(),
    command: z.string(),
    createdPaths: z.array(z.array(z.string())),
    createdFile: z.boolean(),
    createdDirs,
  }),
  z.object({
    kind: z.literal('json-mcp'),
    agent: z.string(),
    scope: z.enum(['project', 'user']),
    file: z.string(),
    path: z.array(z.string()),
    createdPaths: z.array(z.array(z.string())),
    createdFile: z.boolean(),
    createdDirs,
  }),
  z.object({
    kind: z.literal('toml-block'),
    agent: z.string(),
    scope: z.enum(['project', 'user']),
    file: z.string(),
    /** What it is, for messages: `the tollgate MCP server`, `trust of the Stop hook`. */
    what: z.string(),
    block: z.string(),
    createdFile: z.boolean(),
    createdDirs,
  }),
]);
export type InstallRecord = z.output<typeof recordSchema>;

const manifestSchema = z.object({ version: z.literal(1), records: z.array(recordSchema) });

export function tollgateHome(env: NodeJS.ProcessEnv, home: string): string {
  return env.TOLLGATE_HOME ?? join(home, '.tollgate');
}

function manifestPath(env: NodeJS.ProcessEnv, home: string): string {
  return join(tollgateHome(env, home), 'installed.json');
}

export function readManifest(env: NodeJS.ProcessEnv, home: string): InstallRecord[] {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(manifestPath(env, home), 'utf8')));
    return parsed.success ? parsed.data.records : [];
  } catch {
    return [];
  }
}

export async function writeManifest(env: NodeJS.ProcessEnv, home: string, records: InstallRecord[]): Promise<void> {
  const path = manifestPath(env, home);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, `${JSON.stringify({ version: 1, records }, null, 2)}\n`, {
    label: '~/.tollgate/installed.json',
  });
}
