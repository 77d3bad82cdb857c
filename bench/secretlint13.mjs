// secretlint 13 with its recommended preset, as the benches compare against it: installed once from the npm registry
// into bench/.cache/secretlint13 (gitignored, `npm install --ignore-scripts`). Shared by secrets.mjs and scale.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { installEnv } from './measure.mjs';

const PACKAGES = ['secretlint@13', '@secretlint/secretlint-rule-preset-recommend@13'];

function packageOf(modules, name) {
  return JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8'));
}

/** The secretlint in `modules` (a node_modules folder), or null when it is not there. */
function secretlintIn(modules) {
  const bin = join(modules, '.bin/secretlint');
  if (!existsSync(bin) || !existsSync(join(modules, '@secretlint/secretlint-rule-preset-recommend'))) return null;
  const cli = packageOf(modules, 'secretlint');
  return {
    bin,
    version: cli.version,
    engines: cli.engines?.node,
    preset: packageOf(modules, '@secretlint/secretlint-rule-preset-recommend').version,
    nodePath: modules,
  };
}

/**
 * secretlint 13 under `root`'s bench/.cache, installed on first use. With `fallback`, a failed install (no registry)
 * gives the secretlint in `root`'s node_modules instead, with a printed warning naming its version; without it, the
 * failure throws.
 */
export function ensureSecretlint13(root, { fallback = false } = {}) {
  const prefix = join(root, 'bench/.cache/secretlint13');
  const modules = join(prefix, 'node_modules');
  if (!secretlintIn(modules)) {
    console.log(`installing ${PACKAGES.join(' ')} into ${relative(root, prefix)} (once)…`);
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'package.json'), '{ "private": true }\n');
    // secretlint 13 declares node >= 22; it is installed and run on this Node regardless, and the benches check
    // that it actually scans what they give it.
    const install = spawnSync(
      'npm',
      ['install', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', ...PACKAGES],
      { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'], env: installEnv() },
    );
    if (install.status !== 0) {
      const why = `npm install of ${PACKAGES.join(' ')} failed: ${(install.stderr ?? '').trim().split('\n').pop()}`;
      const local = fallback ? secretlintIn(join(root, 'node_modules')) : null;
      if (!local) throw new Error(why);
      console.warn(
        `WARNING: ${why}; comparing against secretlint ${local.version} from node_modules instead (not what users run)`,
      );
      return local;
    }
  }
  const installed = secretlintIn(modules);
  if (!installed) throw new Error(`secretlint is missing from ${relative(root, prefix)} after npm install`);
  return installed;
}
