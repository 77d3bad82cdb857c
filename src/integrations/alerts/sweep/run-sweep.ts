import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { type ProbeResult, probeAgent } from '../../../agents/health.js';
import type { AgentName, RegisteredAdapter } from '../../../agents/index.js';
import { errorMessage, TollgateError } from '../../../core/errors.js';
import { writeFileAtomic } from '../../../core/state/atomic-write.js';
import { acquireFileLock } from '../../../core/state/lock.js';
import { listAlerts } from '../github-rest.js';
import type { ValidateAlertSummary } from '../summary.js';
import { loadAlertConfig, runValidateAlert } from '../validate-alert.js';
import { withCloneCleanup } from './clone-cleanup.js';
import type { AlertListFilters, ListedAlert } from './open-alerts-parse.js';
import { inShard, type Shard } from './shard.js';
import { alertResultDir, isAlertDone, markAlertDone } from './sweep-done.js';
import { ERROR_FILE, RESULT_FILE, resultOf, type SweepError } from './sweep-result.js';

export interface SweepOptions {
  scope: { repo: string } | { org: string };
  filters: AlertListFilters;
  shard: Shard;
  /** Alerts decided at once (each runs its own analyses concurrently too). */
  concurrency: number;
  out: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  analyses?: number;
  agents?: AgentName[];
  timeoutMs?: number;
  /** Ask each secret's provider whether it is live, as evidence (`--verify`). */
  verify?: boolean;
  json: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface SweepSummary {
  shard: string;
  listed: number;
  inShard: number;
  alreadyDone: number;
  decided: number;
  failed: Array<{ repo: string; number: number; message: string }>;
  verdicts: Record<string, number>;
  out: string;
}

/**
 * `validate-alert --repo/--org --open`: every open alert of this shard, each decided by the one validate-alert
 * pipeline into `<out>/<owner>/<repo>/<number>/`, then marked done (`done.json`, written last) under the alert's
 * `updated_at` and the config's hash. A rerun skips what is done on the same inputs and redoes the rest, so a
 * killed or retried shard finishes only what was left. Resolves to 0 when every alert of the shard is decided,
 * 1 when some could not be (each named; rerun to retry them).
 */
export async function runSweep(options: SweepOptions): Promise<number> {
  if (!options.env.GITHUB_TOKEN && !options.env.GH_TOKEN)
    throw new TollgateError(
      'usage',
      'GITHUB_TOKEN: not set; listing secret-scanning alerts needs a token with "Secret scanning alerts: read"',
    );
  const out = resolve(options.cwd, options.out);
  await mkdir(out, { recursive: true });
  const lock = await acquireFileLock(join(out, '.sweep.lock'), {
    wait: false,
    timeoutMs: 0,
    busyMessage: (holder) =>
      `${join(out, '.sweep.lock')}: another sweep (pid ${holder.pid} on ${holder.host}) writes to this folder; give each sweep its own --out`,
  });
  try {
    return await sweep(options, out);
  } finally {
    lock.release();
  }
}

async function sweep(options: SweepOptions, out: string): Promise<number> {
  const token = options.env.GITHUB_TOKEN || options.env.GH_TOKEN || undefined;
  const redact = (text: string) => (token ? text.split(token).join('***') : text);
  const listed = await listAlerts(options.scope, options.filters, {
    apiUrl: options.env.GITHUB_API_URL || 'https://api.github.com',
    token,
    redact,
  });
  const mine = listed.filter((alert) => inShard(alert.repo, alert.number, options.shard));
  const configHash = await hashInputs(options);
  const summary: SweepSummary = {
    shard: `${options.shard.index}/${options.shard.count}`,
    listed: listed.length,
    inShard: mine.length,
    alreadyDone: 0,
    decided: 0,
    failed: [],
    verdicts: {},
    out,
  };
  const limit = pLimit(options.concurrency);
  const probe = rememberingProbe(options);
  await Promise.all(
    mine.map((alert) =>
      limit(async () => {
        const dir = alertResultDir(out, alert.repo, alert.number);
        const key = { repo: alert.repo, number: alert.number, updatedAt: alert.updatedAt, configHash };
        if (await isAlertDone(dir, key)) {
          summary.alreadyDone += 1;
          return;
        }
        const decided = await withCloneCleanup(dir, () => decide(alert, out, { ...options, probe }, redact));
        if ('message' in decided) {
          summary.failed.push({ repo: alert.repo, number: alert.number, message: decided.message });
          options.stderr(`tollgate: ${alert.repo}#${alert.number}: not decided: ${decided.message}\n`);
          return;
        }
        await writeFileAtomic(join(dir, RESULT_FILE), `${JSON.stringify(resultOf(decided, alert), null, 2)}\n`);
        await rm(join(dir, ERROR_FILE), { force: true });
        await markAlertDone(dir, key);
        summary.decided += 1;
        summary.verdicts[decided.verdict] = (summary.verdicts[decided.verdict] ?? 0) + 1;
        options.stderr(`tollgate: ${alert.repo}#${alert.number}: ${decided.verdict}\n`);
      }),
    ),
  );
  options.stdout(options.json ? `${JSON.stringify(summary, null, 2)}\n` : renderSweepSummary(summary));
  return summary.failed.length > 0 ? 1 : 0;
}

/** One alert through validate-alert; its masked `--json` summary, or why it could not be decided. */
async function decide(
  alert: ListedAlert,
  out: string,
  options: SweepOptions & { probe: (adapter: RegisteredAdapter) => Promise<ProbeResult> },
  redact: (text: string) => string,
): Promise<ValidateAlertSummary | { message: string }> {
  const [owner = '', repo = ''] = alert.repo.split('/');
  const dir = alertResultDir(out, alert.repo, alert.number);
  let stdout = '';
  try {
    await runValidateAlert({
      target: { kind: 'github', owner, repo, alertId: String(alert.number) },
      cwd: options.cwd,
      env: options.env,
      outDir: out,
      json: true,
      showUsage: false,
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      progress: 'off',
      probe: options.probe,
      verify: options.verify === true,
      ...(options.analyses !== undefined ? { analyses: options.analyses } : {}),
      ...(options.agents ? { agents: options.agents } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    return JSON.parse(stdout) as ValidateAlertSummary;
  } catch (error) {
    const failure: SweepError = {
      repo: alert.repo,
      number: alert.number,
      secretType: alert.secretType,
      message: redact(errorMessage(error)),
    };
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, ERROR_FILE), `${JSON.stringify(failure, null, 2)}\n`);
    return { message: failure.message };
  }
}

/**
 * Each agent CLI is probed (installed, the right program, logged in) once per sweep, not once per alert; a failed
 * probe is not remembered, so a CLI that comes back is used again. Usage-limit cooldowns are still read per alert.
 */
function rememberingProbe(options: SweepOptions): (adapter: RegisteredAdapter) => Promise<ProbeResult> {
  const passed = new Map<string, ProbeResult>();
  return async (adapter) => {
    const known = passed.get(adapter.name);
    if (known) return known;
    const result = await probeAgent(adapter, { repoRoot: options.cwd, env: options.env });
    if (result.kind === 'ok') passed.set(adapter.name, result);
    return result;
  };
}

/** What decides an alert besides the alert itself: the alerts config and the flags that override it. */
async function hashInputs(options: SweepOptions): Promise<string> {
  const { effective } = await loadAlertConfig(options.cwd, options.env);
  const inputs = {
    config: effective.alerts,
    analyses: options.analyses,
    agents: options.agents,
    timeoutMs: options.timeoutMs,
    verify: options.verify === true,
  };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 16);
}

function renderSweepSummary(summary: SweepSummary): string {
  const verdicts = Object.entries(summary.verdicts)
    .map(([verdict, count]) => `${verdict} ${count}`)
    .join(', ');
  const lines = [
    `tollgate alert sweep, shard ${summary.shard}: ${summary.inShard} of ${summary.listed} open alert(s) in this shard; ${summary.alreadyDone} already done, ${summary.decided} decided${verdicts ? ` (${verdicts})` : ''}, ${summary.failed.length} not decided`,
    ...summary.failed.map((failure) => `  ${failure.repo}#${failure.number}: ${failure.message}`),
    `Results: ${summary.out} (merge shards with \`tollgate alerts merge DIR...\`)`,
  ];
  return `${lines.join('\n')}\n`;
}
