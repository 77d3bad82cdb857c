#!/usr/bin/env node
/**
 * What `--verify` costs: `tollgate scan --verify` over 100 findings (100 distinct GitHub tokens, half live) against a
 * local HTTPS provider answering in 80 ms, against the same scan without `--verify` in the same run; then the same
 * with `permissions.network: deny`, which must send nothing. Target: at most 1 s added per 100 findings.
 *
 *   npm run build && node bench/verify.mjs
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeTestCa, removeTestCa, startFakeProvider } from '../test/fakes/https-provider/fake-provider.mjs';
import { exitWithUsageIfAsked, median, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FINDINGS = 100;
const LATENCY_MS = 80;

// GitHub tokens carry a CRC32 checksum in their last 6 characters (base62): make valid-looking ones.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function crc32(text) {
  let crc = -1;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i);
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ -1) >>> 0;
}
function base62(value, width) {
  let out = '';
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, '0');
}
function githubToken(seed) {
  const digest = createHash('sha256').update(seed).digest();
  const body = Array.from(digest.subarray(0, 30), (byte) => BASE62[byte % 62]).join('');
  return `ghp_${body}${base62(crc32(body), 6)}`;
}

const ca = makeTestCa();
const tokens = Array.from({ length: FINDINGS }, (_, i) => githubToken(`bench-verify-${i}`));
const live = new Set(tokens.filter((_, i) => i % 2 === 0).map((token) => `Bearer ${token}`));
const provider = await startFakeProvider(ca, (req) => ({
  status: req.path === '/user' && live.has(req.headers.authorization) ? 200 : 401,
  delayMs: LATENCY_MS,
}));
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-verify-'));
try {
  // Config is read from the repository, as users have it.
  spawnSync('git', ['init', '-q'], { cwd: work });
  mkdirSync(join(work, 'src'));
  for (const [i, token] of tokens.entries())
    writeFileSync(join(work, 'src', `client-${i}.ts`), `export const token = "${token}";\n`);
  const config = (extra) =>
    `secrets:\n  verifyLimit: ${FINDINGS}\n  verifyEndpoints:\n    github: ${provider.base}\n${extra}`;
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: ca.caFile };
  // Asynchronous: the fake provider lives in this process and must keep answering while the scan runs.
  const scan = async (args) => {
    const started = performance.now();
    const cli = [join(root, 'bin/tollgate.cjs'), 'scan', 'src', '--format', 'json', ...args];
    const run = await promisify(execFile)(process.execPath, cli, { cwd: work, env, maxBuffer: 1 << 28 }).catch(
      (error) => error,
    );
    if (run.code !== 1) throw new Error(`scan exited ${run.code}: ${run.stderr}`);
    return { ms: performance.now() - started, report: JSON.parse(run.stdout) };
  };
  writeFileSync(join(work, 'tollgate.config.yaml'), config(''));
  const plain = [];
  const verified = [];
  let report;
  for (let round = 0; round < 3; round++) {
    rmSync(join(work, '.tollgate'), { recursive: true, force: true }); // no cached answers: every request is sent
    plain.push((await scan([])).ms);
    const run = await scan(['--verify']);
    verified.push(run.ms);
    report = run.report;
  }
  const counts = { live: 0, invalid: 0, unknown: 0 };
  for (const finding of report.findings) counts[finding.verification] += 1;
  if (counts.live !== FINDINGS / 2 || counts.invalid !== FINDINGS / 2)
    throw new Error(`unexpected answers: ${JSON.stringify(counts)}`);

  writeFileSync(join(work, 'tollgate.config.yaml'), `${config('  verify: true\n')}permissions:\n  network: deny\n`);
  rmSync(join(work, '.tollgate'), { recursive: true, force: true });
  const before = provider.seen.length;
  await scan([]);
  const denied = provider.seen.length - before;

  const added = median(verified) - median(plain);
  printResult({
    name: 'verify',
    line: `verify: ${FINDINGS} findings, provider latency ${LATENCY_MS} ms: scan ${(median(plain) / 1000).toFixed(2)} s, with --verify ${(median(verified) / 1000).toFixed(2)} s: +${(added / 1000).toFixed(2)} s per ${FINDINGS} findings (target <= 1 s: ${added <= 1000 ? 'met' : 'NOT met'}); ratio ${(median(verified) / median(plain)).toFixed(2)}x; permissions.network deny: ${denied} request(s) (target 0)`,
    values: {
      findings: FINDINGS,
      latencyMs: LATENCY_MS,
      plainMs: median(plain),
      verifyMs: median(verified),
      addedMs: added,
      deniedRequests: denied,
    },
  });
} finally {
  await provider.close();
  removeTestCa(ca);
  rmSync(work, { recursive: true, force: true });
}
