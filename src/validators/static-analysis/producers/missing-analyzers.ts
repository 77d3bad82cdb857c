import { createHash } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { z } from 'zod';
import { readSignedJsonFile, writeSignedJsonFile } from '../../../core/state/signed-json-file.js';
import { ensureTollgateDir } from '../../../core/state/tollgate-dir.js';

/**
 * Analyzers found missing, remembered between runs so that a machine without Semgrep or CodeQL is told how to
 * install them once, not in a paragraph on every run: the run still says the analyzer was unavailable, and repeats the
 * install advice only when what it found changed. A missing analyzer is also not looked for again while nothing
 * that could bring it changed: the key is the analyzer's config, PATH, and the modification time of every PATH folder
 * (installing a program into one changes it). The file is signed with the user's state key: a change cannot forge a
 * "missing" to skip an analyzer; deleting it only makes the next run look again.
 */
const FILE = 'missing-analyzers.json';

const fileSchema = z.object({ version: z.literal(1), missing: z.record(z.string(), z.string()) });

export interface AnalyzerProbe {
  /** `semgrep`, `codeql`. */
  analyzer: string;
  /** The analyzer's options: a config that changes is looked at afresh. */
  config: unknown;
  /** The environment the analyzer would be spawned with. */
  env: NodeJS.ProcessEnv;
  repoRoot: string;
}

/** What that PATH offers now: each folder with its modification time (absent folders count too). */
function probeKey(probe: AnalyzerProbe): string {
  const path = probe.env.PATH ?? '';
  const folders = path.split(delimiter).map((folder) => {
    try {
      return `${folder}\0${statSync(folder).mtimeMs}`;
    } catch {
      return `${folder}\0-`;
    }
  });
  return createHash('sha256')
    .update(JSON.stringify({ analyzer: probe.analyzer, config: probe.config, folders }))
    .digest('hex');
}

function fileOf(repoRoot: string): string {
  return join(ensureTollgateDir(repoRoot).cacheDir, FILE);
}

async function readMissing(repoRoot: string): Promise<Record<string, string>> {
  const read = await readSignedJsonFile(fileOf(repoRoot), fileSchema, 'analyzer-probes').catch(() => null);
  return read?.kind === 'ok' ? read.value.missing : {};
}

/** Whether an earlier run found the analyzer missing with this very config and PATH. */
export async function knownMissing(probe: AnalyzerProbe): Promise<boolean> {
  return (await readMissing(probe.repoRoot))[probe.analyzer] === probeKey(probe);
}

/**
 * Records that the analyzer is missing. True when that is news (no earlier run found it missing with this config and
 * PATH): then a person is told how to install it. A failure to write only means the advice is given again next time.
 */
export async function rememberMissing(probe: AnalyzerProbe): Promise<boolean> {
  const before = await readMissing(probe.repoRoot);
  const key = probeKey(probe);
  if (before[probe.analyzer] === key) return false;
  try {
    const path = fileOf(probe.repoRoot);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    await writeSignedJsonFile(path, 'analyzer-probes', { version: 1, missing: { ...before, [probe.analyzer]: key } });
  } catch {
    // Only when the advice is given depends on it.
  }
  return true;
}
