import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangedFile } from '../../../../core/change-set/types.js';

/**
 * The diff-range data-extension pack: it fills CodeQL's `restrictAlertsTo` predicate (codeql/util) so queries only
 * report alerts on the changed lines, the way github/codeql-action builds `codeql-action/pr-diff-range`
 * (src/analyze.ts, CLI ≥ 2.21). Rows are `[absolutePath, startLine, endLine]`, 1-based; `0, 0` means the whole file.
 * Empty data would switch the restriction off and report everything, so an empty change gets a sentinel row that
 * matches nothing.
 */
export const DIFF_RANGE_PACK = 'tollgate/pr-diff-range';

export type DiffRangeRow = readonly [path: string, startLine: number, endLine: number];
const SENTINEL_ROW: DiffRangeRow = ['', 0, 0];

export function diffRangeRows(
  files: readonly Pick<ChangedFile, 'path' | 'changedLines'>[],
  options: { repoRoot: string; scope: 'changed_lines' | 'changed_files' },
): DiffRangeRow[] {
  const rows: DiffRangeRow[] = [];
  for (const file of files) {
    const absolute = join(options.repoRoot, file.path);
    if (options.scope === 'changed_files') rows.push([absolute, 0, 0]);
    else for (const range of file.changedLines) rows.push([absolute, range.start, range.end]);
  }
  return rows.length > 0 ? rows : [SENTINEL_ROW];
}

function renderQlpack(): string {
  return [
    `name: ${DIFF_RANGE_PACK}`,
    'version: 0.0.0',
    'library: true',
    'extensionTargets:',
    "  codeql/util: '*'",
    'dataExtensions:',
    '  - pr-diff-range.yml',
    '',
  ].join('\n');
}

/** JSON strings are valid YAML flow scalars, so every path is written exactly, whatever characters it holds. */
export function renderDiffRangeData(rows: readonly DiffRangeRow[]): string {
  const lines = [
    'extensions:',
    '  - addsTo:',
    '      pack: codeql/util',
    '      extensible: restrictAlertsTo',
    '      checkPresence: false',
    '    data:',
    ...rows.map(([path, start, end]) => `      - [${JSON.stringify(path)}, ${start}, ${end}]`),
    '',
  ];
  return lines.join('\n');
}

/** Writes the pack into `dir` (its own folder, passed to `--additional-packs`). */
export async function writeDiffRangePack(dir: string, rows: readonly DiffRangeRow[]): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(join(dir, 'qlpack.yml'), renderQlpack());
  await writeFile(join(dir, 'pr-diff-range.yml'), renderDiffRangeData(rows));
}
