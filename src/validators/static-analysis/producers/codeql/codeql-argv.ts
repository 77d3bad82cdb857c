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
