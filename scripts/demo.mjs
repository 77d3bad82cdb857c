#!/usr/bin/env node
// `npm run demo`: builds nothing itself (npm runs `build` first), then makes a throwaway git repository with a small
// sample change, one of whose checks fails, runs `tollgate run` on it and shows the report. No account, network or AI
// CLI is needed. The repository is removed afterwards unless KEEP=1.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDemoRepo } from './demo-repo.mjs';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'tollgate.cjs');
const { sandbox, repo, env } = makeDemoRepo();

console.log(`Demo repository: ${repo}`);
console.log(
  'The agent changed src/cart.mjs (adds `discounted`) and added src/README.md and src/payments.mjs (with a pasted token). Running `tollgate run`:\n',
);
const run = spawnSync(process.execPath, [bin, 'run'], { cwd: repo, env, stdio: 'inherit' });
console.log(
  `\ntollgate exited with ${run.status} (0 passed, 1 findings or failed checks, 2 bad usage or config, 3 internal error).`,
);
console.log('The run log replays with `tollgate log` in that repository; try `KEEP=1 npm run demo` to keep it.');
if (process.env.KEEP !== '1') rmSync(sandbox, { recursive: true, force: true });
// The demo worked if tollgate produced a verdict; a failing check is the point of it.
process.exit(run.status === 0 || run.status === 1 ? 0 : 1);
