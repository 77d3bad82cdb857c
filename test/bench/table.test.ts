import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The speed table of `npm run bench` (bench/table.mjs): one row per speed target, read from the
// records the benches leave, quiet alone or quiet beside loaded.
const table = await import(pathToFileURL(join(process.cwd(), 'bench/table.mjs')).href);

const load = [0.5, 0.7];
/** Records as the benches write them (bench/*.mjs: recordResult, printResult), with run-all's load. */
function records(scale = 1) {
  return [
    {
      bench: 'secrets',
      corpus: 'full',
      megabytes: 256,
      speedup: 6 / scale,
      cpuRatio: 0.25,
      mbps: 250 / scale,
      load,
    },
    { bench: 'scale-threads', cores: 2, oneWall: 4, manyWall: 2.2, defaultWall: 2.2 * scale, same: true, load },
    { bench: 'scale-dense', file: 'dense.json', wallRatio: 0.5, cpuRatio: 0.5, findings: 0, load },
    { bench: 'scale-dense', file: 'dense-line.json', wallRatio: 0.8 * scale, cpuRatio: 0.7, findings: 0, load },
    {
      bench: 'scale-dense',
      file: 'identifiers.json',
      wallRatio: 0.9,
      cpuRatio: 0.9,
      findings: 3,
      secretlintFindings: 0,
      load,
    },
    {
      bench: 'startup',
      stopHook: { ms: 60, nodeMs: 45, ratio: 1.33 * scale },
      runCommittedChange: { ms: 80, nodeMs: 45, ratio: 1.8 },
      load,
    },
    { bench: 'change-set', '20k': { firstRun: { ratio: 2.5 * scale, cpuRatio: 2.9 } }, load },
    { bench: 'history', repo: '/r v7.2.0..v8.0.0 (abc)', cpuRatio: 1.1, ratio: 1.3, load },
    {
      bench: 'rule-cost',
      ratio: 0.95 / scale,
      allRules: 921,
      oldestRules: 253,
      allMBPerCpuSecond: 40,
      oldestMBPerCpuSecond: 42,
      megabytes: 64,
      load,
    },
  ];
}

/** What scripts/test-under-load.mjs records (bench/npm-test-record.mjs). */
const npmTestRecord = (burners: number, seconds: number, loadAfter: number) => ({
  bench: 'npm-test',
  burners,
  seconds,
  exitCode: 0,
  date: '2026-12-01T10:00:00.000Z',
  commit: 'abc1234',
  load: [0.2, loadAfter],
});

const rowOf = (lines: string[], measure: string) => {
  const line = lines.find((candidate) => candidate.startsWith(`| ${measure}`));
  if (!line) throw new Error(`no row ${measure} in\n${lines.join('\n')}`);
  return line;
};

describe('renderTable', () => {
  it('prints every row, in order, each with its figure, target, verdict and load', () => {
    const lines: string[] = table.renderTable(records());
    expect(lines).toHaveLength(2 + table.ROWS.length);
    expect(table.ROWS.map((row: { id: string }) => row.id)).toEqual([
      'secret-scan',
      'scan-threads',
      'dense-line',
      'identifier-json',
      'repeat-run',
      'stop-hook',
      'first-run',
      'history',
      'rule-cost',
      'npm-test',
    ]);
    expect(rowOf(lines, 'secret scan')).toContain('6.00× faster in wall, 0.25× its CPU, 250 MB/s (256 MB)');
    expect(rowOf(lines, 'secret scan')).toContain('| met | 0.5 → 0.7 |');
    expect(rowOf(lines, 'JSON whose values')).toContain('3 findings (secretlint: 0)');
    expect(rowOf(lines, 'JSON whose values')).toContain('| NOT met |');
    expect(rowOf(lines, 'repeat `run`')).toContain('| NOT met |');
    expect(rowOf(lines, 'stop hook')).toContain('| met |');
    expect(rowOf(lines, '`scan --history`')).not.toContain('not rails');
  });

  it('says what was not measured, and how to measure npm test, instead of leaving a row out', () => {
    const lines: string[] = table.renderTable([], { npmTestHint: 'run the script' });
    expect(lines).toHaveLength(2 + table.ROWS.length);
    expect(rowOf(lines, 'secret scan')).toContain('not measured (`secrets.mjs` recorded nothing');
    expect(rowOf(lines, '`npm test`')).toContain('run the script');
    expect(table.renderTable([], { onlyMeasured: true })).toHaveLength(2);
  });

  it('says when the history row ran on another history than rails', () => {
    const lines: string[] = table.renderTable([
      { bench: 'history', repo: 'generated (merges)', cpuRatio: 1.1, ratio: 1.2, load },
    ]);
    expect(rowOf(lines, '`scan --history`')).toContain('on the generated (merges) history, not rails');
  });

  it('prints the history row’s floor: tollgate’s own git pass and its start-up, against `git log -p`', () => {
    const lines: string[] = table.renderTable([
      {
        bench: 'history',
        repo: '/r v7.2.0..v8.0.0 (abc)',
        cpuRatio: 1.5,
        ratio: 1.2,
        gitCpuSeconds: 0.6,
        ownGitCpuSeconds: 0.51,
        startUpCpuSeconds: 0.12,
        load,
      },
    ]);
    expect(rowOf(lines, '`scan --history`')).toContain(
      '1.50× its CPU, 1.20× its wall; its own git pass 0.85×, start-up 0.20×',
    );
  });

  it('reads npm test from its record, by burner count', () => {
    const lines: string[] = table.renderTable([npmTestRecord(0, 290, 1.1), npmTestRecord(8, 700, 8.4)]);
    expect(rowOf(lines, '`npm test`')).toContain(
      '290 s with 0 burners, exit 0 (on record 2026-12-01, abc1234) | ≤ 300 s',
    );
    expect(rowOf(lines, '`npm test`')).toContain('| met | 0.2 → 1.1 |');
  });
});

describe('renderLoadTable', () => {
  it('sets each quiet figure beside its loaded one, worse by the row’s own direction', () => {
    const lines: string[] = table.renderLoadTable(records(1), records(2.5), 8);
    // Lower is better (a ratio to the anchor): 2.5 times the quiet figure is worse than 2×.
    expect(rowOf(lines, 'stop hook')).toContain('| 2.50× | NO |');
    // Higher is better (times faster, the rule-cost ratio): a fall to 1/2.5 is as bad.
    expect(rowOf(lines, 'secret scan')).toContain('| 2.50× | NO |');
    expect(rowOf(lines, 'rule cost')).toContain('| 2.50× | NO |');
    // A row the load did not move.
    expect(rowOf(lines, '`scan --history`')).toContain('| 1.00× | yes |');
    expect(rowOf(lines, 'secret scan')).toContain('≥ 5× faster in wall, ≤ 0.3× its CPU, ≥ 200 MB/s: met');
  });

  it('compares npm test quiet against its record at the loaded pass’s burner count', () => {
    const both = [npmTestRecord(0, 290, 1.1), npmTestRecord(8, 560, 8.4)];
    const lines: string[] = table.renderLoadTable(both, both, 8);
    expect(rowOf(lines, '`npm test`')).toContain('| 1.93× | yes |');
  });
});
