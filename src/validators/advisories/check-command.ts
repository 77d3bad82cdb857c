import { applyFlagOverrides, loadConfig } from '../../core/config/load.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import { toolOptions } from '../../core/config/schema.js';
import { ExitCode, isTollgateError, TollgateError } from '../../core/errors.js';
import type { ToolResult } from '../../core/result.js';
import { ensureTollgateDir } from '../../core/state/tollgate-dir.js';
import { type CheckedDependency, checkDependencies } from './check-dependencies.js';
import { advisoriesTool } from './index.js';
import {
  ADVISORY_SOURCES,
  type AdvisoriesOptions,
  type AdvisorySourceName,
  advisoriesOptionsSchema,
} from './options.js';
import { parsePackageSpec } from './package-spec.js';

export interface AdvisoriesCheckFlags {
  packages: string[];
  all: boolean;
  format: 'markdown' | 'json';
  source: string[];
  offlineDir?: string;
  base?: string;
}

async function effectiveOptions(
  flags: AdvisoriesCheckFlags,
): Promise<{ options: AdvisoriesOptions; repoRoot: string | null; network: boolean }> {
  let repoRoot: string | null = null;
  try {
    repoRoot = await findRepoRoot(process.cwd());
  } catch (error) {
    if (!isTollgateError(error) || error.code !== 'not_a_repo') throw error;
  }
  let options: AdvisoriesOptions = advisoriesOptionsSchema.parse(undefined);
  let network = true;
  if (repoRoot) {
    const loaded = await loadConfig({ repoRoot, cwd: process.cwd(), env: process.env });
    options = toolOptions(loaded.config, advisoriesTool) as AdvisoriesOptions;
    network = loaded.config.permissions.network !== 'deny';
  }
  const sources = flags.source.length > 0 ? flags.source : options.sources;
  const unknown = sources.filter((source) => !(ADVISORY_SOURCES as readonly string[]).includes(source));
  if (unknown.length > 0) {
    throw new TollgateError(
      'usage',
      `--source: expected one of ${ADVISORY_SOURCES.join(', ')}; got ${JSON.stringify(unknown[0])}`,
    );
  }
  options = {
    ...options,
    sources: sources as AdvisorySourceName[],
    all: flags.all || options.all,
    offline: flags.offlineDir ? { dir: flags.offlineDir } : options.offline,
  };
  if (options.sources.includes('offline') && !options.offline.dir) {
    throw new TollgateError(
      'usage',
      '--source offline: needs --offline-dir DIR (or advisories.offline.dir in the config)',
    );
  }
  return { options, repoRoot, network };
}

function renderCheckResult(outcome: ToolResult, format: 'markdown' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(outcome, null, 2)}\n`;
  const lines = [`advisories: ${outcome.status}: ${outcome.summary}`];
  for (const finding of outcome.findings) {
    lines.push('', `[${finding.severity}] ${finding.title}${finding.path ? ` (${finding.path})` : ''}`);
    if (finding.body) lines.push(...finding.body.split('\n').map((line) => (line ? `  ${line}` : '')));
  }
  return `${lines.join('\n')}\n`;
}

/** Without packages: `tollgate run --only advisories`, with `--all` passed as the tool's input. */
async function checkChangeSet(repoRoot: string, flags: AdvisoriesCheckFlags): Promise<number> {
  const [{ runGate }, { renderReport }, { TOLLGATE_VERSION }] = await Promise.all([
    import('../../core/run/run-gate.js'),
    import('../../report/index.js'),
    import('../../core/version.js'),
  ]);
  const { validators: tools } = await import('../index.js');
  // --source and --offline-dir count here too; as flag overrides they also change the config hash, so a result got
  // with them is never the baseline a later `tollgate run` skips on.
  const loaded = applyFlagOverrides(
    await loadConfig({ repoRoot, cwd: process.cwd(), env: process.env, base: flags.base }),
    {
      'advisories.sources': flags.source.length > 0 ? flags.source : undefined,
      'advisories.offline.dir': flags.offlineDir,
    },
  );
  const report = await runGate({
    repoRoot,
    config: loaded.config,
    configHash: loaded.hash,
    ...(loaded.policy ? { policy: loaded.policy } : {}),
    tools,
    ...(flags.base ? { base: flags.base } : {}),
    only: [advisoriesTool.name],
    inputs: { [advisoriesTool.name]: flags.all ? { all: true } : {} },
    // `--all` checks every locked dependency, changed or not: nothing to skip.
    ...(flags.all ? { force: true } : {}),
    // Asked for by name: a database that could not answer is never a pass here.
    strict: true,
    command: ['tollgate', ...process.argv.slice(2)].join(' '),
    version: TOLLGATE_VERSION,
  });
  process.stdout.write(await renderReport(report, flags.format));
  return report.verdict === 'passed' ? ExitCode.passed : ExitCode.failed;
}

/**
 * `tollgate advisories check [packages…]`: with packages, checks them and nothing else; without, checks what the
 * change set's lockfiles added or changed, through the same pipeline as `tollgate run --only advisories`.
 * Exit 0 only when every source answered and nothing at `failOn` or above was found.
 */
export async function advisoriesCheck(flags: AdvisoriesCheckFlags): Promise<number> {
  const { options, repoRoot, network } = await effectiveOptions(flags);
  if (!network && options.sources.some((source) => source !== 'offline')) {
    throw new TollgateError(
      'config',
      'permissions.network is "deny": use --source offline --offline-dir DIR, or allow network',
    );
  }
  if (flags.packages.length === 0) {
    if (!repoRoot)
      throw new TollgateError(
        'not_a_repo',
        'no packages given and not inside a git repository: pass packages like npm:lodash@4.17.15',
      );
    return checkChangeSet(repoRoot, flags);
  }
  const dependencies: CheckedDependency[] = [];
  const problems: string[] = [];
  for (const spec of flags.packages) {
    const parsed = parsePackageSpec(spec);
    if (parsed.ok) dependencies.push({ ...parsed.value, origin: 'explicit' });
    else problems.push(parsed.problem);
  }
  if (problems.length > 0) throw new TollgateError('usage', problems[0]!, problems.slice(1));
  const outcome = await checkDependencies(dependencies, {
    options,
    repoRoot,
    cacheDir: repoRoot ? ensureTollgateDir(repoRoot).cacheDir : null,
    signal: new AbortController().signal,
    env: process.env,
  });
  process.stdout.write(renderCheckResult(outcome, flags.format));
  return outcome.status === 'passed' ? ExitCode.passed : ExitCode.failed;
}
