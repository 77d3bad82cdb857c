import { DIFF_RANGE_PACK } from './diff-range-pack.js';
import { CODEQL_LANGUAGES, type CodeqlLanguage } from './languages.js';

/**
 * The argv of every CodeQL command tollgate runs: pure, so the fake `codeql` in the tests can check them exactly.
 * https://docs.github.com/en/code-security/codeql-cli/codeql-cli-manual
 */

export function resolveLanguagesArgs(): string[] {
  return ['resolve', 'languages', '--format=json'];
}

export function databaseCreateArgs(options: {
  database: string;
  language: CodeqlLanguage;
  sourceRoot: string;
  threads: number;
}): string[] {
  const args = [
    'database',
    'create',
    options.database,
    `--language=${options.language}`,
    `--source-root=${options.sourceRoot}`,
    '--overwrite',
    `--threads=${options.threads}`,
  ];
  if (CODEQL_LANGUAGES[options.language].buildMode === 'none') args.push('--build-mode=none');
  return args;
}

export function databaseAnalyzeArgs(options: {
  database: string;
  querySpec: string;
  output: string;
  language: CodeqlLanguage;
  threads: number;
  packDir: string;
}): string[] {
  return [
    'database',
    'analyze',
    options.database,
    options.querySpec,
    '--format=sarif-latest',
    `--output=${options.output}`,
    `--sarif-category=${options.language}`,
    `--threads=${options.threads}`,
    `--additional-packs=${options.packDir}`,
    `--extension-packs=${DIFF_RANGE_PACK}`,
  ];
}

export function versionArgs(): string[] {
  return ['version', '--format=json'];
}

/**
 * `database init` for an overlay: the base (`--overlay-base`, built once per base commit) or the change on top of a
 * copy of it (`--overlay-changes=FILE`, which must not overwrite the copied database). Build mode `none` only.
 */
export function databaseInitArgs(options: {
  database: string;
  language: CodeqlLanguage;
  sourceRoot: string;
  overlay: { kind: 'base' } | { kind: 'changes'; changesFile: string };
}): string[] {
  return [
    'database',
    'init',
    options.database,
    ...(options.overlay.kind === 'base' ? ['--force-overwrite'] : []),
    `--language=${options.language}`,
    `--source-root=${options.sourceRoot}`,
    '--build-mode=none',
    options.overlay.kind === 'base' ? '--overlay-base' : `--overlay-changes=${options.overlay.changesFile}`,
  ];
}

export function traceCommandArgs(options: { database: string; sourceRoot: string }): string[] {
  return ['database', 'trace-command', '--use-build-mode', `--working-dir=${options.sourceRoot}`, options.database];
}

export function finalizeArgs(options: { database: string; threads: number }): string[] {
  return ['database', 'finalize', '--finalize-dataset', `--threads=${options.threads}`, options.database];
}

/** Leaves the caches an overlay needs in the base database (CodeQL's "overlay" cleanup level). */
export function overlayCleanupArgs(database: string): string[] {
  return ['database', 'cleanup', database, '--cache-cleanup=overlay'];
}
