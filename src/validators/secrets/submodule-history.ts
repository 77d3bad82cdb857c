import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { appendAll } from '../../core/append-all.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import type { SecretsOptions } from '../../secrets/options.js';
import {
  emptyScanOutcome,
  type ScanOutcome,
  type ScanTarget,
  type ScanTargetsOptions,
  scanBatches,
} from '../../secrets/scan-targets.js';
import { historyBatches } from '../../secrets/sources/git-sources.js';

/**
 * A moved submodule pointer brings in the submodule's commits between the old and the new pointer: each is scanned
 * (as `scan --history` does) when the submodule is checked out with those commits. When it is not, those commits were
 * not examined: the file is listed as unreadable, which makes the result incomplete rather than a pass.
 */
export async function scanSubmodules(
  ctx: ToolContext<SecretsOptions, unknown>,
  scanOptions: ScanTargetsOptions,
): Promise<ScanOutcome> {
  const outcome = emptyScanOutcome();
  for (const file of ctx.changeSet.files) {
    const pointers = file.submodule;
    if (!pointers?.to || ctx.signal.aborted) continue;
    const dir = join(ctx.repoRoot, file.path);
    const missing = await missingCommit(ctx, dir, [pointers.to, ...(pointers.from ? [pointers.from] : [])]);
    if (missing !== null) {
      outcome.skipped.push({
        path: file.path,
        reason: 'unreadable',
        detail: `submodule ${missing}; its new commits were not scanned (check it out: git submodule update --init)`,
      });
      continue;
    }
    const range = pointers.from ? `${pointers.from}..${pointers.to}` : pointers.to;
    const batches = historyBatches({ repoRoot: dir, ...(ctx.env ? { env: ctx.env } : {}), range });
    // Every line of those commits is new to this change: an allow marker in them is one the change adds.
    const gate = scanOptions.gate ? { ...scanOptions.gate, addedLine: () => true } : undefined;
    const scanned = await scanBatches(prefixed(batches, `${file.path}/`), {
      ...scanOptions,
      ...(gate ? { gate } : {}),
      onProgress: undefined,
    });
    scanned.findings = scanned.findings.map((finding) => ({ ...finding, isNew: true }));
    // Not a spread push: a submodule's history may hold more findings than a call takes arguments.
    for (const key of ['findings', 'skipped', 'suppressed', 'binaryRuns'] as const)
      appendAll(outcome[key] as unknown[], scanned[key]);
    outcome.baselined += scanned.baselined;
    outcome.scannedFiles += scanned.scannedFiles;
    outcome.scannedBytes += scanned.scannedBytes;
  }
  return outcome;
}

/** Why the submodule cannot show these commits (not checked out, or without them), or null when it can. */
async function missingCommit(
  ctx: ToolContext<SecretsOptions, unknown>,
  dir: string,
  commits: readonly string[],
): Promise<string | null> {
  const run = (args: string[]) => ctx.runProcess('git', args, { cwd: dir, env: ctx.env, timeoutMs: 30_000 });
  const top = await run(['rev-parse', '--show-toplevel']).catch(() => null);
  // Without its own checkout, git in that folder would answer for the superproject.
  const realDir = await realpath(dir).catch(() => null);
  if (top?.exitCode !== 0 || realDir === null || (await realpath(top.stdout.trim()).catch(() => '')) !== realDir)
    return 'is not checked out';
  for (const commit of commits) {
    const found = await run(['cat-file', '-e', `${commit}^{commit}`]);
    if (found.exitCode !== 0) return `does not have commit ${commit.slice(0, 12)}`;
  }
  return null;
}

async function* prefixed(batches: AsyncIterable<ScanTarget[]>, prefix: string): AsyncGenerator<ScanTarget[]> {
  for await (const batch of batches) yield batch.map((target) => ({ ...target, path: `${prefix}${target.path}` }));
}
