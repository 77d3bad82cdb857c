// Memory and speed of the SARIF reader on a 50 MB log: it streams, so the extra memory it holds must stay under
// 2× the file's size (a streaming reader's budget). Compared with JSON.parse of the whole file for reference.
// Run after `npx tsc -p tsconfig.build.json`: node bench/sarif.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);
// After the usage check: `--help` needs no build.
const { readSarifFile } = await import('../dist/validators/static-analysis/reader/read-sarif.js');

// Memory figures need a collection before each measurement: rerun ourselves with --expose-gc when it is missing.
if (!globalThis.gc) {
  const rerun = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  process.exit(rerun.status ?? 0);
}

const TARGET_BYTES = 50 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-sarif-'));
const file = join(dir, 'big.sarif');

function result(index) {
  const path = `src/module-${index % 2000}/file-${index % 97}.ts`;
  return JSON.stringify({
    ruleId: `js/rule-${index % 40}`,
    ruleIndex: index % 40,
    level: index % 3 === 0 ? 'error' : 'warning',
    message: {
      text: `Finding number ${index}: this value flows from [a user-provided value](1) into a sensitive sink.`,
    },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: path, uriBaseId: '%SRCROOT%' },
          region: { startLine: (index % 400) + 1, startColumn: 5, endColumn: 42 },
        },
      },
    ],
    partialFingerprints: { primaryLocationLineHash: `${index.toString(16).padStart(16, '0')}:1` },
    codeFlows: [
      {
        threadFlows: [
          {
            locations: [1, 2, 3].map((step) => ({
              location: {
                physicalLocation: {
                  artifactLocation: { uri: path, uriBaseId: '%SRCROOT%' },
                  region: { startLine: (index % 400) + step },
                },
                message: { text: `step ${step}` },
              },
            })),
          },
        ],
      },
    ],
  });
}

const rules = Array.from({ length: 40 }, (_, index) => ({
  id: `js/rule-${index}`,
  shortDescription: { text: `Rule ${index}` },
  help: { markdown: `# Rule ${index}\n${'Explanation. '.repeat(40)}` },
  properties: { tags: ['security'], 'security-severity': String((index % 10) + 0.5) },
}));
const parts = [
  `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"CodeQL","rules":${JSON.stringify(rules)}}},"results":[`,
];
let size = parts[0].length;
let count = 0;
while (size < TARGET_BYTES) {
  const text = (count === 0 ? '' : ',') + result(count);
  parts.push(text);
  size += text.length;
  count++;
}
parts.push(']}]}');
writeFileSync(file, parts.join(''));
parts.length = 0;
const bytes = statSync(file).size;

// 20 changed files, changed lines 1–50 in each: a realistic change touching a few percent of the results.
const files = new Map(
  Array.from({ length: 20 }, (_, index) => [`src/module-${index}/file-${index % 97}.ts`, [{ start: 1, end: 50 }]]),
);
const gc = globalThis.gc;

function used() {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.external + memory.arrayBuffers;
}

gc();
const baseline = used();
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, used());
}, 5);
const started = performance.now();
const read = await readSarifFile(file, {
  producer: 'bench',
  label: 'big.sarif',
  repoRoot: '/repo',
  scope: { mode: 'changed_lines', files },
});
const elapsed = performance.now() - started;
peak = Math.max(peak, used());
clearInterval(sampler);
if (!read.ok) throw new Error(read.problem);

gc();
const parseBaseline = used();
const parseStarted = performance.now();
const whole = JSON.parse(readFileSync(file, 'utf8'));
const parseElapsed = performance.now() - parseStarted;
const parsePeak = used();
void whole;

const mb = (value) => `${(value / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `sarif: streamed ${mb(bytes)} (${count} results) in ${elapsed.toFixed(0)} ms; kept ${read.issues.length} on the change; ` +
    `peak extra memory ${mb(peak - baseline)} = ${((peak - baseline) / bytes).toFixed(2)}× the file (budget 2×)` +
    '',
);
console.log(
  `sarif: for reference, JSON.parse of the whole file: ${parseElapsed.toFixed(0)} ms, ${mb(parsePeak - parseBaseline)} = ${((parsePeak - parseBaseline) / bytes).toFixed(2)}× the file`,
);
if (peak - baseline > 2 * bytes) console.log('sarif: OVER BUDGET');
rmSync(dir, { recursive: true, force: true });
