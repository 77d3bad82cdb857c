// `npm test`'s wall time on record: scripts/test-under-load.mjs appends one line per run to bench/.cache/npm-test.jsonl
// (kept out of git: a figure of this machine), and `npm run bench` shows the latest recent one in its table, since
// running the whole suite inside the bench would double its time.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Older measurements say little about today's suite. */
const RECENT_DAYS = 14;

export function npmTestRecordFile(root) {
  return join(root, 'bench/.cache/npm-test.jsonl');
}

export function appendNpmTestRecord(root, record) {
  const file = npmTestRecordFile(root);
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ bench: 'npm-test', ...record })}\n`);
}

/**
 * The recent records (at most RECENT_DAYS old, unreadable lines left out) and, for the table when one is missing,
 * how to measure it.
 */
export function readNpmTestRecords(root, now = new Date()) {
  const file = npmTestRecordFile(root);
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const records = [];
  for (const line of lines) {
    try {
      const record = JSON.parse(line);
      const age = (now.getTime() - Date.parse(record.date)) / 86_400_000;
      if (record.bench === 'npm-test' && age >= 0 && age <= RECENT_DAYS) records.push(record);
    } catch {
      // A line cut short by an interrupted write: not a measurement.
    }
  }
  return {
    records,
    hint:
      `no measurement in the last ${RECENT_DAYS} days: \`node scripts/test-under-load.mjs --load 0\` on an idle ` +
      'machine (and `--load 8` for the loaded figure) records one',
  };
}
