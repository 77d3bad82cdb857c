/**
 * The demo's throwaway project: a repository with a private HOME and git config, a committed cart module, and an
 * agent's change with an off-by-one bug and a pasted (made-up) token. Shared by `npm run demo` and
 * `scripts/screenshot-report.mjs`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fakeChecksumToken } from '../dist/secrets/sample-tokens.js';

export function makeDemoRepo() {
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
  return { sandbox, repo, env };
}
