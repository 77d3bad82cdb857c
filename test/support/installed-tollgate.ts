import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../src/core/process.js';
import { timeBudget } from './time-budget.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm pack` of this checkout (its built dist/) installed with `npm i -g --prefix` into `work`: what users run.
 * Resolves to the folder holding the installed `tollgate` binary, for PATH. Throws with npm's output on failure.
 */
export async function installTollgate(work: string): Promise<string> {
  const packed = await runProcess('npm', ['pack', '--pack-destination', work, '--ignore-scripts', '--silent'], {
    cwd: ROOT,
    timeoutMs: timeBudget(180_000),
  });
  if (packed.exitCode !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
  const prefix = join(work, 'prefix');
  const installed = await runProcess(
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
    { cwd: work, timeoutMs: timeBudget(180_000) },
  );
  if (installed.exitCode !== 0) throw new Error(`npm install of ${tarball} failed: ${installed.stderr}`);
  return join(prefix, 'bin');
}

/** The pinned real agent CLI installed by test/agents/install-real-clis.sh, or null when it is not there. */
export function agentCliPath(name: 'claude' | 'codex' | 'copilot' | 'gemini'): string {
  return join(ROOT, 'test/.agent-clis', name, 'node_modules/.bin', name);
}
