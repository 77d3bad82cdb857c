#!/usr/bin/env node
// `npm run demo`: builds nothing itself (npm runs `build` first), then makes a throwaway git repository with a small
// sample change, one of whose checks fails, runs `tollgate run` on it and shows the report. No account, network or AI
// CLI is needed. The repository is removed afterwards unless KEEP=1.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakeChecksumToken } from '../dist/secrets/sample-tokens.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'tollgate.cjs');
const sandbox = mkdtempSync(join(tmpdir(), 'tollgate-demo-'));
const repo = join(sandbox, 'shop');
const home = join(sandbox, 'home');
mkdirSync(repo);
mkdirSync(home);
writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Demo Agent\n\temail = agent@example.invalid\n');
// A private HOME and git config: the demo never reads or writes yours.
const env = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };

function write(path, text) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}
function git(...args) {
  const result = spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

write(
  'tollgate.config.yaml',
  `# The demo project's gate: two checks that always run and one that runs only when docs change.
checks:
  - name: unit tests
    run: node test/cart.test.mjs
    timeout: 30s
  - name: syntax
    run: node --check src/cart.mjs
  - name: docs links
    run: node -e "process.exit(0)"
    paths: ["docs/**"]
`,
);
write(
  'src/cart.mjs',
  'export function total(items) {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n',
);
write(
  'test/cart.test.mjs',
  `import assert from 'node:assert/strict';
import { total, discounted } from '../src/cart.mjs';
assert.equal(total([{ price: 2, qty: 3 }]), 6);
if (discounted) assert.equal(discounted([{ price: 10, qty: 1 }], 0.1), 9, 'a 10% discount on 10 is 9');
console.log('cart tests passed');
`,
);
git('init', '-q', '-b', 'main');
git('add', '-A');
git('commit', '-q', '-m', 'Cart totals');

// The agent's change: a new function with an off-by-one bug, one committed file and one untracked file.
write(
  'src/cart.mjs',
  'export function total(items) {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n\n' +
    'export function discounted(items, rate) {\n  return total(items) * (1 - rate) + 1;\n}\n',
);
write('src/README.md', 'Cart helpers: `total` and `discounted`.\n');
// And a pasted credential: a made-up token with a valid checksum, generated here so no token sits in this file.
write('src/payments.mjs', `export const paymentsToken = '${fakeChecksumToken('ghp_', 'demo')}';\n`);

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
