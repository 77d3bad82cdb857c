import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { z } from 'zod';
import { exportTree } from '../../../../core/change-set/export-tree.js';
import { readJsonFileResult, writeFileAtomic } from '../../../../core/state/atomic-write.js';
import type { ProducerInput } from '../producer.js';
import { databaseInitArgs, finalizeArgs, overlayCleanupArgs, traceCommandArgs, versionArgs } from './codeql-argv.js';
import { type LanguageOutcome, stepFailure } from './language-outcome.js';
import { CODEQL_LANGUAGES, type CodeqlLanguage } from './languages.js';

/**
 * Incremental CodeQL databases (overlays). The base commit's database is built once, in build mode `none`, with
 * `--overlay-base`; each run copies it and extracts only the changed files on top (`--overlay-changes`), which is
 * what GitHub's own PR analysis does. The source tree CodeQL reads is the base tree with the change's snapshot
 * written over it, so CodeQL sees exactly the content every other validator sees, not live edits.
 *
 * Everything lives in the user's cache (`$XDG_CACHE_HOME/tollgate/codeql/<repo>/<language>/`), outside the work tree,
 * so a full-database run of the repository never extracts it.
 */

/** From these CodeQL CLI versions on, overlays are supported for the language (GitHub's release validation). */
const OVERLAY_MINIMUM_VERSION: Partial<Record<CodeqlLanguage, string>> = {
  'java-kotlin': '2.23.8',
  'javascript-typescript': '2.23.9',
  python: '2.23.9',
  ruby: '2.23.9',
  csharp: '2.24.1',
  cpp: '2.25.0',
};

export function supportsOverlay(language: CodeqlLanguage, cliVersion: string | null): boolean {
  const minimum = OVERLAY_MINIMUM_VERSION[language];
  const version = cliVersion === null ? null : semver.coerce(cliVersion);
  return (
    minimum !== undefined &&
    version !== null &&
    CODEQL_LANGUAGES[language].buildMode === 'none' &&
    semver.gte(version, minimum)
  );
}

const versionSchema = z.object({ version: z.string().min(1) });

/** The installed CLI's version (`codeql version --format=json`), or null when it does not say (then no overlays). */
export async function readCliVersion(input: ProducerInput): Promise<string | null> {
  const { ctx } = input;
  const result = await ctx.runProcess('codeql', versionArgs(), { cwd: ctx.repoRoot, timeoutMs: 60_000 });
  if (result.exitCode !== 0) return null;
  try {
    return versionSchema.parse(JSON.parse(result.stdout)).version;
  } catch {
    return null;
  }
}

const baseRecordSchema = z.object({
  version: z.literal(1),
  baseCommit: z.string(),
  cliVersion: z.string(),
  /** Paths of the source tree an overlay wrote over and that are not yet put back to the base's content. */
  dirty: z.array(z.string()),
});
type BaseRecord = z.output<typeof baseRecordSchema>;

export interface OverlayRun {
  input: ProducerInput;
  language: CodeqlLanguage;
  cliVersion: string;
  threads: number;
  /** The run's database: a copy of the base with the overlay on top. */
  database: string;
  deadline: number;
}

interface OverlayPaths {
  home: string;
  source: string;
  base: string;
  record: string;
}

function overlayPaths(input: ProducerInput, language: CodeqlLanguage): OverlayPaths {
  const { env, repoRoot } = input.ctx;
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  const repoKey = createHash('sha256').update(repoRoot).digest('hex').slice(0, 16);
  const home = join(cacheHome, 'tollgate', 'codeql', repoKey, language);
  return { home, source: join(home, 'source'), base: join(home, 'base-db'), record: join(home, 'base.json') };
}

async function readRecord(path: string): Promise<BaseRecord | null> {
  const read = await readJsonFileResult(path, baseRecordSchema).catch(() => ({ kind: 'missing' as const }));
  return read.kind === 'ok' ? read.value : null;
}

async function writeRecord(path: string, record: BaseRecord): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(record)}\n`, { label: path });
}

const remaining = (run: OverlayRun) => Math.max(1, run.deadline - Date.now());

/** Runs the `codeql` steps in order; the first that fails is the language's outcome. */
async function runSteps(
  run: OverlayRun,
  steps: ReadonlyArray<{ step: string; command: string; args: string[] }>,
): Promise<LanguageOutcome | null> {
  const { ctx } = run.input;
  for (const { step, command, args } of steps) {
    const result = await ctx.runProcess('codeql', args, {
      cwd: ctx.repoRoot,
      timeoutMs: remaining(run),
      maxOutputBytes: 1024 * 1024,
    });
    const failed = stepFailure(run.language, { step, command }, result);
    if (failed) return failed;
  }
  return null;
}

/** init, extract, finalize: the base (`--overlay-base`) or an overlay of the changes on a copy of it. */
function buildSteps(
  run: OverlayRun,
  target: {
    database: string;
    sourceRoot: string;
    overlay: { kind: 'base' } | { kind: 'changes'; changesFile: string };
  },
) {
  const name = target.overlay.kind === 'base' ? 'overlay base' : 'overlay';
  const { database, sourceRoot } = target;
  return [
    {
      step: `${name} creation`,
      command: 'database init',
      args: databaseInitArgs({ database, language: run.language, sourceRoot, overlay: target.overlay }),
    },
    {
      step: `${name} extraction`,
      command: 'database trace-command',
      args: traceCommandArgs({ database, sourceRoot }),
    },
    {
      step: `${name} finalization`,
      command: 'database finalize',
      args: finalizeArgs({ database, threads: run.threads }),
    },
  ];
}

/** The base database for the change's base commit: reused when this CLI built it for that commit, else built now. */
async function ensureBase(run: OverlayRun, paths: OverlayPaths, baseCommit: string): Promise<LanguageOutcome | null> {
  const { ctx } = run.input;
  const record = await readRecord(paths.record);
  if (
    record?.baseCommit === baseCommit &&
    record.cliVersion === run.cliVersion &&
    existsSync(join(paths.base, 'codeql-database.yml'))
  ) {
    if (record.dirty.length > 0) {
      await exportTree({ repoRoot: ctx.repoRoot, commit: baseCommit, dir: paths.source, paths: record.dirty });
      await writeRecord(paths.record, { ...record, dirty: [] });
    }
    return null;
  }
  ctx.progress(`codeql: building the ${run.language} overlay base for ${baseCommit.slice(0, 12)} (once per base)`);
  await rm(paths.home, { recursive: true, force: true });
  await mkdir(paths.home, { recursive: true, mode: 0o700 });
  await exportTree({ repoRoot: ctx.repoRoot, commit: baseCommit, dir: paths.source });
  const failed = await runSteps(run, [
    ...buildSteps(run, { database: paths.base, sourceRoot: paths.source, overlay: { kind: 'base' } }),
    { step: 'overlay base cleanup', command: 'database cleanup', args: overlayCleanupArgs(paths.base) },
  ]);
  if (failed) {
    await rm(paths.home, { recursive: true, force: true });
    return failed;
  }
  await writeRecord(paths.record, { version: 1, baseCommit, cliVersion: run.cliVersion, dirty: [] });
  return null;
}

/** Writes the change's snapshot over the base source tree; answers the paths CodeQL must re-extract. */
async function writeChange(run: OverlayRun, paths: OverlayPaths): Promise<string[]> {
  const { changeSet } = run.input.ctx;
  const changed = new Set<string>();
  for (const file of changeSet.files) {
    changed.add(file.path);
    if (file.oldPath) changed.add(file.oldPath);
  }
  const list = [...changed].sort();
  // Recorded first: a run killed half-way leaves the tree to be put back by the next one.
  const record = await readRecord(paths.record);
  if (record) await writeRecord(paths.record, { ...record, dirty: list });
  for (const file of changeSet.files) {
    if (file.oldPath) await rm(join(paths.source, file.oldPath), { force: true });
    const target = join(paths.source, file.path);
    const bytes = file.status === 'deleted' ? null : await changeSet.readBytes(file.path);
    if (bytes === null) {
      await rm(target, { force: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, bytes, { mode: 0o600 });
  }
  return list;
}

/**
 * The run's database for one language as an overlay on the cached base: answers the database and the source root
 * CodeQL read (alerts and the diff range name files there), or how it failed.
 */
export async function createOverlayDatabase(
  run: OverlayRun,
): Promise<{ database: string; sourceRoot: string } | LanguageOutcome> {
  const { ctx } = run.input;
  const baseCommit = ctx.changeSet.base.commit;
  if (!baseCommit) {
    return { status: 'failed', detail: 'no base commit to build an overlay on', failure: noBase(run.language) };
  }
  const paths = overlayPaths(run.input, run.language);
  const baseFailed = await ensureBase(run, paths, baseCommit);
  if (baseFailed) return baseFailed;
  const changes = await writeChange(run, paths);
  const changesFile = join(ctx.artifactsDir, `codeql-overlay-changes-${run.language}.json`);
  await writeFile(changesFile, `${JSON.stringify({ changes })}\n`, { mode: 0o600 });
  ctx.progress(`codeql: extracting ${changes.length} changed file(s) over the ${run.language} base`);
  await rm(run.database, { recursive: true, force: true });
  await mkdir(dirname(run.database), { recursive: true, mode: 0o700 });
  await cp(paths.base, run.database, { recursive: true });
  const failed = await runSteps(
    run,
    buildSteps(run, { database: run.database, sourceRoot: paths.source, overlay: { kind: 'changes', changesFile } }),
  );
  return failed ?? { database: run.database, sourceRoot: paths.source };
}

function noBase(language: CodeqlLanguage) {
  return { state: 'failed' as const, reason: `codeql (${language}): the change has no base commit for an overlay` };
}
