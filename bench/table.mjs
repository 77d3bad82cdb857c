// The speed table `npm run bench` ends with: one row per measure, read from what the benches recorded (BENCH_RESULTS,
// see measure.mjs: recordResult), each with its anchor, the figure, the target, whether it is met and the load average
// before and after the bench that measured it. Pure: records in, lines out (bench/run-all.mjs does the running).

const times = (value) => `${value.toFixed(2)}×`;

/** The last record a bench made, optionally the last one `where` accepts. */
function last(records, bench, where = () => true) {
  return records.findLast((record) => record.bench === bench && where(record));
}

/**
 * The rows, in the order of the table. `find(records, burners)` picks the record a row reads (null when the bench
 * recorded none), `read(record)` gives `{ figure, text, met }`: `figure` is the one number the load comparison uses,
 * and `better` says which way it improves.
 */
export const ROWS = [
  {
    id: 'secret-scan',
    measure: 'secret scan of real npm package code',
    anchor: 'secretlint 13 `--format compact`',
    target: '≥ 5× faster in wall, ≤ 0.3× its CPU, ≥ 200 MB/s',
    bench: 'secrets.mjs',
    better: 'higher',
    find: (records) => last(records, 'secrets'),
    read(r) {
      return {
        figure: r.speedup,
        text:
          `${r.speedup.toFixed(2)}× faster in wall, ${times(r.cpuRatio)} its CPU, ${r.mbps.toFixed(r.mbps < 10 ? 1 : 0)} MB/s ` +
          `(${r.megabytes.toFixed(0)} MB${r.corpus === 'slice' ? ' slice, --quick' : ''})`,
        met: r.speedup >= 5 && r.cpuRatio <= 0.3 && r.mbps >= 200,
      };
    },
  },
  {
    id: 'scan-threads',
    measure: 'scan threads: default against 1 and against one per core',
    anchor: '`os.availableParallelism()`',
    target: 'every core, whatever the load: default ≤ 1.1× the wall of one thread per core',
    bench: 'scale.mjs threads',
    better: 'lower',
    find: (records) => last(records, 'scale-threads'),
    read(r) {
      const againstAll = r.defaultWall / r.manyWall;
      return {
        figure: r.defaultWall / r.oneWall,
        text:
          `default ${times(r.defaultWall / r.oneWall)} the wall of 1 thread, ${r.cores} threads ` +
          `${times(r.manyWall / r.oneWall)}; default ${times(againstAll)} ${r.cores} threads` +
          (r.same ? '' : '; findings DIFFER'),
        met: r.same && (r.cores === 1 || againstAll <= 1.1),
      };
    },
  },
  {
    id: 'dense-line',
    measure: 'keyword-dense JSON, one 12 MB line of credential-named keys',
    anchor: 'secretlint 13',
    target: '≤ 1.0×',
    bench: 'scale.mjs dense',
    better: 'lower',
    find: (records) => last(records, 'scale-dense', (record) => record.file === 'dense-line.json'),
    read(r) {
      return {
        figure: r.wallRatio,
        text: `${times(r.wallRatio)} its wall, ${times(r.cpuRatio)} its CPU`,
        met: r.wallRatio <= 1,
      };
    },
  },
  {
    id: 'identifier-json',
    measure: 'JSON whose values look like identifiers, 2 MB',
    anchor: 'secretlint 13',
    target: '≤ 1.0× and 0 findings',
    bench: 'scale.mjs dense',
    better: 'lower',
    find: (records) => last(records, 'scale-dense', (record) => record.file === 'identifiers.json'),
    read(r) {
      return {
        figure: r.wallRatio,
        text: `${times(r.wallRatio)} its wall, ${r.findings} findings (secretlint: ${r.secretlintFindings ?? '?'})`,
        met: r.wallRatio <= 1 && r.findings === 0,
      };
    },
  },
  {
    id: 'repeat-run',
    measure: 'repeat `run`, validated change committed but not pushed',
    anchor: '`node -e 0`',
    target: '≤ 1.5×',
    bench: 'startup.mjs',
    better: 'lower',
    find: (records) => last(records, 'startup', (record) => record.runCommittedChange),
    read: (r) => startupRow(r.runCommittedChange),
  },
  {
    id: 'stop-hook',
    measure: 'stop hook (validated, unchanged)',
    anchor: '`node -e 0`',
    target: '≤ 1.5×',
    bench: 'startup.mjs',
    better: 'lower',
    find: (records) => last(records, 'startup', (record) => record.stopHook),
    read: (r) => startupRow(r.stopHook),
  },
  {
    id: 'first-run',
    measure: 'first `run --only checks,secrets`, 20k files / 2k changed',
    anchor: '`git status --porcelain && git diff HEAD --stat`',
    target: '≤ 3×',
    bench: 'change-set.mjs --only 20k',
    better: 'lower',
    find: (records) => last(records, 'change-set', (record) => record['20k']?.firstRun),
    read(record) {
      const r = record['20k'].firstRun;
      return {
        figure: r.ratio,
        // As the issue's table has it: git's own CPU against the anchor's, and how many git processes a first run starts.
        text: `${times(r.ratio)} its wall, ${times(r.cpuRatio)} its CPU${r.git ? `; git alone ${times(r.git.gitCpuRatio)}; ${r.git.processes} git processes` : ''}`,
        met: r.ratio <= 3 && r.cpuRatio <= 3,
      };
    },
  },
  {
    id: 'history',
    measure: '`scan --history`, rails v7.2.0..v8.0.0',
    anchor: '`git log -p` CPU',
    target: '≤ 1.2× CPU',
    bench: 'history.mjs',
    better: 'lower',
    find: (records) => last(records, 'history'),
    read(r) {
      const rails = /v7\.2\.0\.\.v8\.0\.0/.test(r.repo);
      return {
        figure: r.cpuRatio,
        text:
          `${times(r.cpuRatio)} its CPU, ${times(r.ratio)} its wall` +
          // The floor before any reading or scanning: tollgate's own git pass and its start on an empty range.
          (r.ownGitCpuSeconds !== undefined && r.startUpCpuSeconds !== undefined
            ? `; its own git pass ${times(r.ownGitCpuSeconds / r.gitCpuSeconds)}, start-up ` +
              `${times(r.startUpCpuSeconds / r.gitCpuSeconds)}`
            : '') +
          (rails ? '' : ` (on the ${r.repo} history, not rails: see docs/benchmarks.md)`),
        met: r.cpuRatio <= 1.2,
      };
    },
  },
  {
    id: 'rule-cost',
    measure: 'rule cost: bytes per CPU-second, every rule against the oldest 253',
    anchor: 'the same scan with 253 rules',
    target: '≥ 0.9',
    bench: 'rule-cost.mjs',
    better: 'higher',
    find: (records) => last(records, 'rule-cost'),
    read(r) {
      return {
        figure: r.ratio,
        text: `${r.ratio.toFixed(3)} (${r.allRules} rules ${r.allMBPerCpuSecond.toFixed(1)} MB per CPU-s, ${r.oldestRules}: ${r.oldestMBPerCpuSecond.toFixed(1)}; ${r.megabytes.toFixed(0)} MB${r.ratioSpread ? `; rounds ${r.ratioSpread.map((value) => value.toFixed(3)).join('-')}` : ''})`,
        met: r.ratio >= 0.9,
      };
    },
  },
  {
    id: 'npm-test',
    measure: '`npm test` wall',
    anchor: '5 minutes (10 at load 8)',
    target: '≤ 300 s quiet, ≤ 600 s at load 8',
    bench: 'scripts/test-under-load.mjs (on record)',
    better: 'lower',
    find: (records, burners) => last(records, 'npm-test', (record) => record.burners === burners),
    read(r) {
      const limit = r.burners === 0 ? 300 : 600;
      return {
        figure: r.seconds,
        text: `${r.seconds.toFixed(0)} s with ${r.burners} burners, exit ${r.exitCode} (on record ${r.date.slice(0, 10)}, ${r.commit})`,
        met: r.exitCode === 0 && r.seconds <= limit,
      };
    },
  },
];

function startupRow(r) {
  return {
    figure: r.ratio,
    text: `${times(r.ratio)} (${r.ms.toFixed(0)} ms against ${r.nodeMs.toFixed(0)} ms)`,
    met: r.ratio <= 1.5,
  };
}

/** How many times worse the loaded figure is than the quiet one (1: the same), by the row's direction. */
export function slowdown(row, quiet, loaded) {
  return row.better === 'higher' ? quiet / loaded : loaded / quiet;
}

const loadText = (load) => (load ? `${load[0].toFixed(1)} → ${load[1].toFixed(1)}` : '');
const cell = (text) => String(text).replaceAll('|', '\\|');
const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;

/** A row's figures from `records` (null when not measured), with the load around the bench that measured it. */
export function rowResult(row, records, burners = 0) {
  const record = row.find(records, burners);
  return record ? { ...row.read(record), load: record.load } : null;
}

/**
 * The quiet table: one Markdown row per measure. Records carry `load: [before, after]` (run-all adds it).
 * `onlyMeasured`: leave out the rows nothing measured (a run of named benches).
 */
export function renderTable(records, { npmTestHint, onlyMeasured = false } = {}) {
  const out = [
    line(['measure', 'anchor', 'figure', 'target', 'met', 'load before → after']),
    line(['---', '---', '---', '---', '---', '---']),
  ];
  for (const row of ROWS) {
    const result = rowResult(row, records);
    if (!result && onlyMeasured) continue;
    out.push(
      line([
        row.measure,
        row.anchor,
        result ? result.text : notMeasured(row, npmTestHint),
        row.target,
        result ? (result.met ? 'met' : 'NOT met') : '—',
        result ? loadText(result.load) : '',
      ]),
    );
  }
  return out;
}

/**
 * Quiet against loaded: each row's figure in both passes and whether the loaded one is within 2× of the quiet one.
 * `burners`: the loaded pass's count (the npm test row reads its own record at that count); `onlyMeasured` as above.
 */
export function renderLoadTable(quietRecords, loadedRecords, burners, { npmTestHint, onlyMeasured = false } = {}) {
  const out = [
    line([
      'measure',
      'anchor',
      'quiet',
      `load ${burners}`,
      'loaded / quiet',
      '≤ 2×',
      'target (quiet)',
      'load, quiet pass',
      'load, loaded pass',
    ]),
    line(['---', '---', '---', '---', '---', '---', '---', '---', '---']),
  ];
  for (const row of ROWS) {
    const quiet = rowResult(row, quietRecords, 0);
    const loaded = rowResult(row, loadedRecords, burners);
    if (!quiet && !loaded && onlyMeasured) continue;
    const factor = quiet && loaded ? slowdown(row, quiet.figure, loaded.figure) : null;
    out.push(
      line([
        row.measure,
        row.anchor,
        quiet ? quiet.text : notMeasured(row, npmTestHint),
        loaded ? loaded.text : notMeasured(row, npmTestHint),
        factor === null ? '—' : `${factor.toFixed(2)}×`,
        factor === null ? '—' : factor <= 2 ? 'yes' : 'NO',
        quiet ? `${row.target}: ${quiet.met ? 'met' : 'NOT met'}` : row.target,
        quiet ? loadText(quiet.load) : '',
        loaded ? loadText(loaded.load) : '',
      ]),
    );
  }
  return out;
}

function notMeasured(row, npmTestHint) {
  if (row.id === 'npm-test') return npmTestHint ?? 'not on record: run `node scripts/test-under-load.mjs`';
  return `not measured (\`${row.bench}\` recorded nothing: see its output above)`;
}
