#!/usr/bin/env node
/**
 * `tollgate alerts merge` over 100 shard folders holding 10,000 decided alerts (the size of a large org's backlog
 * after a sweep), through the CLI as users run it, against a baseline in the same run: `cat` of the same result files
 * (the least any merge has to read). Target: under 2 s.
 *
 *   npm run build && node bench/alerts-merge.mjs
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithUsageIfAsked, median, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARDS = 100;
const ALERTS = 10_000;
const REPOS = 50;
const VERDICTS = ['TRUE_POSITIVE', 'FALSE_POSITIVE', 'INCONCLUSIVE'];

const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-merge-'));
try {
  const dirs = Array.from({ length: SHARDS }, (_, i) => join(work, `shard-${i + 1}`));
  for (let i = 0; i < ALERTS; i++) {
    const repo = `octo-org/repo-${i % REPOS}`;
    const number = Math.floor(i / REPOS) + 1;
    const dir = join(dirs[i % SHARDS], repo, String(number));
    mkdirSync(dir, { recursive: true });
    const result = {
      repo,
      number,
      secretType: 'github_personal_access_token',
      verdict: VERDICTS[i % 3],
      confidence: 8,
      confidenceLabel: 'High',
      riskLevel: 'High',
      keyFinding: 'The token authenticates as a live user.',
      winner: { index: 0, agent: 'claude' },
      decidedBy: 'judge',
      analyses: 3,
      usage: { inputTokens: 12000, outputTokens: 3000, costUsd: 0.12 },
      updatedAt: '2026-11-20T10:00:00Z',
    };
    writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
    writeFileSync(
      join(dir, 'done.json'),
      JSON.stringify({ repo, number, updatedAt: result.updatedAt, configHash: 'bench' }),
    );
  }
  const time = (command, args) => {
    const started = performance.now();
    const run = spawnSync(command, args, { cwd: work, maxBuffer: 1 << 30, encoding: 'utf8' });
    const ms = performance.now() - started;
    if (run.status !== 0) throw new Error(`${command} ${args[0]} exited ${run.status}: ${run.stderr}`);
    return { ms, stdout: run.stdout };
  };
  const merges = [];
  const cats = [];
  let decided = 0;
  for (let round = 0; round < 5; round++) {
    const merge = time(process.execPath, [
      join(root, 'bin/tollgate.cjs'),
      'alerts',
      'merge',
      ...dirs,
      '--format',
      'json',
    ]);
    decided = JSON.parse(merge.stdout).results.length;
    merges.push(merge.ms);
    cats.push(time('sh', ['-c', 'find . -name result.json -exec cat {} + > /dev/null']).ms);
  }
  if (decided !== ALERTS) throw new Error(`merge found ${decided} of ${ALERTS} results`);
  const merge = median(merges);
  const cat = median(cats);
  printResult({
    name: 'alerts-merge',
    line: `alerts merge: ${SHARDS} shards, ${ALERTS} alerts in ${(merge / 1000).toFixed(2)} s (target < 2 s: ${merge < 2000 ? 'met' : 'NOT met'}); find+cat of the same files ${(cat / 1000).toFixed(2)} s; ratio ${(merge / cat).toFixed(2)}x`,
    values: { shards: SHARDS, alerts: ALERTS, mergeMs: Math.round(merge), catMs: Math.round(cat), ratio: merge / cat },
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
