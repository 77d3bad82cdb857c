import { type DetectedChecks, detectChecks } from '../../core/config/detect-checks/detect-checks.js';
import { readProjectFiles } from '../../core/config/detect-checks/read-project-files.js';
import { type WrittenConfig, writeConfigTemplate } from '../../core/config/init-config.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import { TollgateError } from '../../core/errors.js';
import { type AtTerminal, whoIsAtTerminal } from '../person-at-terminal.js';
import { loadPolicy, recordPersonsAcceptance } from './policy-work.js';

export interface InitOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  force: boolean;
  /** Propose the project's own commands as checks (`--no-detect`: the bare template). */
  detect: boolean;
}

/** What became of the written config as policy (docs/policy.md). */
type ConfigPolicy =
  /** The base has this very config (or the repository has no base to differ from): runs use it. */
  | { kind: 'in-force' }
  /** A person at this terminal wrote it: recorded as accepted. */
  | { kind: 'accepted' }
  /** An edit a person still has to accept. */
  | { kind: 'pending' }
  /** `TOLLGATE_CONFIG` names another file: runs read that one. */
  | { kind: 'not-read' }
  /** `TOLLGATE_POLICY=base`: only the base's config counts. */
  | { kind: 'base-only' }
  /** Accepting was not possible (the base's config does not load, the file changed meanwhile). */
  | { kind: 'not-accepted'; reason: string };

/**
 * `tollgate init`: finds the project's commands, writes the config, and, for a person at their terminal, accepts it
 * as the policy edit it is, with the same record `tollgate policy accept` writes: the person asked for this file, so
 * the next `tollgate run` judges by it. Under an agent or without a terminal the edit stays pending for a person.
 */
export async function initProject(options: InitOptions): Promise<string> {
  const repoRoot = await findRepoRoot(options.cwd, options.env);
  const detected: DetectedChecks = options.detect
    ? detectChecks(await readProjectFiles(repoRoot))
    : { checks: [], notes: [] };
  const written = await writeConfigTemplate({ repoRoot, force: options.force, checks: detected.checks });
  const who = whoIsAtTerminal(options.env);
  const policy = await settleConfigPolicy(repoRoot, written, who, options.env);
  return [
    ...detectionLines(detected, options.detect),
    `${written.overwritten ? 'overwrote' : 'wrote'} ${written.file}${countOf(detected.checks.length)}`,
    policyLine(written.file, policy, who),
  ].join('\n');
}

async function settleConfigPolicy(
  repoRoot: string,
  written: WrittenConfig,
  who: AtTerminal,
  env: NodeJS.ProcessEnv,
): Promise<ConfigPolicy> {
  let loaded: Awaited<ReturnType<typeof loadPolicy>>;
  try {
    loaded = await loadPolicy(repoRoot, env);
  } catch (error) {
    if (error instanceof TollgateError) return { kind: 'not-accepted', reason: error.message };
    throw error;
  }
  const file = loaded.policy.files.get(written.file);
  if (!file) return { kind: 'not-read' };
  if (file.status === 'unchanged' || file.status === 'accepted') return { kind: 'in-force' };
  if (loaded.policy.mode === 'base') return { kind: 'base-only' };
  if (who.kind !== 'person') return { kind: 'pending' };
  if (file.workingBytes?.toString('utf8') !== written.text) {
    return { kind: 'not-accepted', reason: `${written.file} changed after init wrote it` };
  }
  await recordPersonsAcceptance(repoRoot, [file], env);
  return { kind: 'accepted' };
}

function detectionLines(detected: DetectedChecks, detect: boolean): string[] {
  if (!detect) return [];
  const found = detected.checks.map((check) => `checks: ${check.name} → ${check.run} (${check.source})`);
  const notes = detected.notes.map((note) => `checks: ${note}`);
  const none =
    detected.checks.length === 0
      ? [
          'checks: no test, lint or type-check command found in package.json, pyproject.toml, tox.ini, noxfile.py, Gemfile, Rakefile, go.mod, Cargo.toml or a Makefile',
        ]
      : [];
  return [...found, ...notes, ...none];
}

function countOf(checks: number): string {
  return checks === 0
    ? `: list your project's commands under "checks:"`
    : ` with ${checks} check${checks === 1 ? '' : 's'}`;
}

/** The last line: what happens at the next run, and who must do what first (an agent is told only that a person must act). */
function policyLine(file: string, policy: ConfigPolicy, who: AtTerminal): string {
  const edit = `${file} is policy (docs/policy.md)`;
  switch (policy.kind) {
    case 'in-force':
      return `the next "tollgate run" uses it\n`;
    case 'accepted':
      return `accepted it on this machine (the config is policy, docs/policy.md; you ran init at your terminal): the next "tollgate run" uses it. Commit it: CI uses the base's config until this one is merged\n`;
    case 'not-read':
      return `"tollgate run" reads the file TOLLGATE_CONFIG names, not ${file}\n`;
    case 'base-only':
      return `${edit}: TOLLGATE_POLICY=base, so runs use the base's config until this one is merged into the base\n`;
    case 'pending':
      return who.kind === 'agent'
        ? `${file} is policy: a person must accept it before "tollgate run" uses it; until then runs use the base's config and fail, reporting the edit\n`
        : `${edit}: a person accepts it by running "tollgate policy accept" in their own terminal; until then runs use the base's config and fail, reporting the edit\n`;
    case 'not-accepted':
      return who.kind === 'agent'
        ? `${file} is policy: a person must accept it before "tollgate run" uses it (${policy.reason})\n`
        : `${edit}, not accepted (${policy.reason}): a person accepts it by running "tollgate policy accept" in their own terminal\n`;
  }
}
