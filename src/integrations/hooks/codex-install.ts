import { join } from 'node:path';
import { listCodexHooks } from './codex-trust.js';
import { missingDirs, readTextOrEmpty } from './config-files.js';
import type { HookEdit, InstallStep } from './hook-agent.js';
import { hookPosition } from './json-config-file.js';
import { appendBlock, hasTable, replaceInBlock, tomlBlock } from './toml-config-file.js';

/**
 * Codex's step after `tollgate install codex` wrote the hook: a Codex hook runs only once trusted, so ask
 * `codex app-server` for the hook's current hash and record it as `[hooks.state."<key>"] trusted_hash` in
 * ~/.codex/config.toml.
 */
export async function trustCodexHook(step: InstallStep): Promise<void> {
  const hook = step.edits.find((edit): edit is HookEdit => edit.kind === 'hook');
  if (!hook) return;
  const rerun = `tollgate install codex${step.scope === 'user' ? ' --user' : ''}`;
  const manual = `Codex skips the hook until it is trusted: rerun \`${rerun}\`, or start \`codex\`, open /hooks and trust \`${step.commands.hookCommand}\`.`;
  const { text: hooksText } = await readTextOrEmpty(hook.file);
  const position = hookPosition(hooksText, hook, step.commands.hookCommand, step.show(hook.file));
  if (!position) return;
  const key = `${hook.file}:stop:${position.group}:${position.handler}`;
  const listed = await listCodexHooks({
    cwd: step.roots.repoRoot ?? step.home,
    env: step.env,
    ...(step.timeoutMs ? { timeoutMs: step.timeoutMs } : {}),
    onWaiting: (elapsed, limit) =>
      step.progress(
        `tollgate: waiting for \`codex app-server\` to list the hooks, to trust the Stop hook (${Math.round(elapsed / 1000)} s so far, at most ${Math.round(limit / 1000)} s)`,
      ),
  });
  if (listed.kind === 'missing') {
    step.notInEffect(`the Stop hook is NOT trusted: codex is not on PATH. Put codex on PATH, then: ${manual}`);
    return;
  }
  if (listed.kind === 'failed') {
    step.notInEffect(`the Stop hook is NOT trusted: could not ask codex for its hash (${listed.message}). ${manual}`);
    return;
  }
  const entry = listed.hooks.find((candidate) => candidate.key === key);
  if (!entry) {
    step.notInEffect(`the Stop hook is NOT trusted: codex app-server does not list the hook ${key}. ${manual}`);
    return;
  }
  if (entry.trustStatus === 'trusted') {
    step.report('Codex already trusts the Stop hook');
    return;
  }
  await recordTrust(step, key, entry.currentHash, manual);
}

/** Writes the hash Codex gave into its config, replacing what an earlier install recorded there. */
async function recordTrust(step: InstallStep, key: string, hash: string, manual: string): Promise<void> {
  const configFile = join(step.home, '.codex', 'config.toml');
  const label = step.show(configFile);
  const { text, existed } = await readTextOrEmpty(configFile);
  const table = ['hooks', 'state', key];
  const block = tomlBlock(table, { trusted_hash: hash });
  const previous = step.manifest.find(
    (record) =>
      record.kind === 'toml-block' && record.file === configFile && record.block.includes(JSON.stringify(key)),
  );
  let next: string | null = null;
  if (previous && previous.kind === 'toml-block') {
    next = replaceInBlock(text, previous.block, block, label);
    if (next !== null) previous.block = block;
  }
  if (next === null) {
    if (hasTable(text, table, label)) {
      step.notInEffect(
        `the Stop hook is NOT trusted: ${label} has its own [hooks.state] entry for it, with another hash; left as is. ${manual}`,
      );
      return;
    }
    next = appendBlock(text, block, label);
    step.manifest.push({
      agent: 'codex',
      scope: step.scope,
      file: configFile,
      createdFile: !existed,
      createdDirs: missingDirs(configFile, step.home),
      kind: 'toml-block',
      what: 'trust of the Stop hook',
      block,
    });
  }
  await step.write(configFile, next, existed);
  step.report(`trusted the Stop hook in ${label} (hash from codex app-server)`);
}
