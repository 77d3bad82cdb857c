import { join } from 'node:path';
import { atLeast, type Finding, makeFinding, SEVERITIES, severityRank } from '../../core/finding.js';
import { result, type ToolResult } from '../../core/result.js';
import { compareText } from '../../core/text-order.js';
import { ownWords } from '../../secrets/own-words.js';
import { createSources } from './create-sources.js';
import type { LockedDependency } from './dependency-diff.js';
import { describePackage, type PackageVersion, packageKey } from './ecosystems.js';
import {
  type AdvisoryMatch,
  findVulnerabilities,
  type SourceFailure,
  type VulnerabilityReport,
  versionFixingAll,
} from './find-vulnerabilities.js';
import type { AdvisoriesOptions } from './options.js';
import { createResponseCache } from './sources/response-cache.js';

/** What an unanswered source means; its "pass: rerun" reads as a password assignment to the masker. */
const NOT_A_PASS = ownWords(
  'this is not a pass: rerun when the source answers, or use an offline database (advisories.sources: [offline])',
);

export const TOOL_NAME = 'advisories';

/** A dependency to check: from a lockfile diff, or named explicitly (`tollgate advisories check npm:lodash@4.17.15`). */
export type CheckedDependency = (LockedDependency & { origin: 'lockfile' }) | (PackageVersion & { origin: 'explicit' });

export interface CheckEnvironment {
  options: AdvisoriesOptions;
  /** The repository root (for `offline.dir` and the cache), or null outside a repository (no cache). */
  repoRoot: string | null;
  /** `.tollgate/cache`, or null for no cache. */
  cacheDir: string | null;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** Lockfiles that could not be read (an error unless something worse is found). */
  problems?: string[];
  /** Said in the summary when nothing needed checking. */
  nothingToCheck?: string;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function maxSeverity(advisories: readonly AdvisoryMatch[]) {
  return advisories.reduce(
    (worst, advisory) => (severityRank(advisory.severity) > severityRank(worst) ? advisory.severity : worst),
    SEVERITIES.at(-1)!,
  );
}

function advisoryLine(advisory: AdvisoryMatch): string {
  const aliases = advisory.aliases.length > 0 ? ` (${advisory.aliases.join(', ')})` : '';
  const cvss = advisory.cvss
    ? `, CVSS ${advisory.cvss.score !== undefined ? `${advisory.cvss.score} ` : ''}${advisory.cvss.vector}`
    : '';
  const severity = `${advisory.severity}${advisory.severityAssumed ? ' (no severity given; assumed)' : ''}${cvss}`;
  const fix = advisory.fixed ? `fixed in ${advisory.fixed}` : 'no fixed version yet';
  const summary = advisory.summary ? ` ${advisory.summary.trim().replace(/\.?$/, '.')}` : '';
  return `- ${advisory.id}${aliases}: ${severity}.${summary} Affected: ${advisory.range}; ${fix}. ${advisory.url}`;
}

function introducedText(dependency: CheckedDependency): string {
  if (dependency.origin === 'explicit') return 'Checked on request (not from a lockfile).';
  switch (dependency.change) {
    case 'added':
      return `Introduced by this change: added in ${dependency.lockfile}.`;
    case 'changed':
      return `Introduced by this change: ${dependency.lockfile} moved it from ${dependency.previous}.`;
    case 'unchanged':
      return `Not introduced by this change: already locked in ${dependency.lockfile}.`;
  }
}

function toFinding(dependency: CheckedDependency, advisories: AdvisoryMatch[]): Finding {
  const sorted = [...advisories].sort(
    (a, b) => severityRank(b.severity) - severityRank(a.severity) || compareText(a.id, b.id),
  );
  const label = `${dependency.name}@${dependency.version} (${dependency.ecosystem})`;
  const known = plural(sorted.length, 'known vulnerability', 'known vulnerabilities');
  // A manifest range: which version gets installed is not known, only that some admitted ones are vulnerable.
  const upgrade = versionFixingAll(dependency, sorted);
  const title = dependency.range
    ? `${label}: the range admits versions with ${known}; ${upgrade ? `require ${upgrade} or later` : 'pin a version outside the affected ranges'}, or commit a lockfile`
    : `${label}: ${known}; ${upgrade ? `upgrade to ${upgrade}` : 'no version fixes all of them yet'}`;
  const rangeNote = dependency.range
    ? [
        '',
        'There is no lockfile beside this manifest, so the exact version is not known: commit one (or pin a version) to check what is installed.',
      ]
    : [];
  return makeFinding({
    validator: TOOL_NAME,
    ruleId: sorted[0]!.id,
    severity: maxSeverity(sorted),
    title,
    body: [introducedText(dependency), ...rangeNote, '', ...sorted.map(advisoryLine)].join('\n'),
    ...(dependency.origin === 'lockfile' ? { path: dependency.lockfile } : {}),
    anchor: `${dependency.ecosystem}:${dependency.name}@${dependency.version}`,
  });
}

function failureStatus(failures: readonly SourceFailure[]): 'rate_limited' | 'tool_unavailable' | 'error' {
  if (failures.some((failure) => failure.kind === 'error')) return 'error';
  if (failures.some((failure) => failure.kind === 'rate_limited')) return 'rate_limited';
  return 'tool_unavailable';
}

interface Vulnerable {
  dependency: CheckedDependency;
  advisories: AdvisoryMatch[];
}

/** Each package once, however many lockfiles lock it. */
function uniquePackages(dependencies: readonly CheckedDependency[]): PackageVersion[] {
  const unique = new Map<string, PackageVersion>();
  for (const dependency of dependencies) {
    const { ecosystem, name, version, range } = dependency;
    unique.set(packageKey(dependency), { ecosystem, name, version, ...(range ? { range } : {}) });
  }
  return [...unique.values()];
}

function queryAdvisories(packages: PackageVersion[], env: CheckEnvironment): Promise<VulnerabilityReport> {
  const { options } = env;
  const cache =
    options.cache.enabled && env.cacheDir
      ? createResponseCache({ dir: join(env.cacheDir, 'advisories'), ttlMs: options.cache.ttl })
      : null;
  const sources = createSources(options, env.repoRoot ?? process.cwd());
  return findVulnerabilities(packages, sources, {
    signal: env.signal,
    timeoutMs: options.timeout,
    cache,
    env: env.env,
  });
}

function isIntroduced(dependency: CheckedDependency): boolean {
  return dependency.origin === 'explicit' || dependency.change !== 'unchanged';
}

function vulnerableDetail({ dependency, advisories }: Vulnerable) {
  return {
    ecosystem: dependency.ecosystem,
    name: dependency.name,
    version: dependency.version,
    ...(dependency.origin === 'lockfile'
      ? {
          lockfile: dependency.lockfile,
          change: dependency.change,
          ...(dependency.previous ? { previous: dependency.previous } : {}),
        }
      : { change: 'explicit' }),
    introducedByChange: isIntroduced(dependency),
    advisories,
  };
}

function resultDetails(options: {
  dependencies: readonly CheckedDependency[];
  packages: readonly PackageVersion[];
  report: VulnerabilityReport;
  vulnerable: readonly Vulnerable[];
  env: CheckEnvironment;
}) {
  const { dependencies, packages, report, vulnerable, env } = options;
  return {
    checked: packages.length,
    introducedByChange: dependencies.filter(isIntroduced).length,
    sources: env.options.sources,
    answered: report.answered,
    failures: report.failures,
    lockfileProblems: env.problems ?? [],
    failOn: env.options.failOn,
    vulnerable: vulnerable.map(vulnerableDetail),
  };
}

/**
 * The status and summary, worst first: a blocking vulnerability, then a source that could not answer, then an
 * unreadable lockfile; only then a pass.
 */
function verdict(options: {
  findings: Finding[];
  packages: readonly PackageVersion[];
  report: VulnerabilityReport;
  env: CheckEnvironment;
  details: Record<string, unknown>;
}): ToolResult {
  const { findings, packages, report, env, details } = options;
  const { failOn } = env.options;
  const problems = env.problems ?? [];
  const blocking = findings.filter((finding) => atLeast(finding.severity, failOn));
  const failureText = report.failures.map((failure) => failure.message).join('; ');
  const problemText = problems.join('; ');
  if (blocking.length > 0) {
    const names = [...new Set(blocking.map((finding) => finding.title.split(':')[0]))].join(', ');
    const also = [failureText, problemText].filter(Boolean).join('; ');
    return result(
      'failed',
      `${plural(blocking.length, 'vulnerable dependency', 'vulnerable dependencies')} at ${failOn} or above: ${names}; upgrade them (see the findings for fixed versions) and run tollgate again${also ? `; also: ${also}` : ''}`,
      findings,
      details,
    );
  }
  if (report.failures.length > 0) {
    const status = failureStatus(report.failures);
    const next = status === 'rate_limited' ? 'wait and rerun, or add a source (advisories.sources)' : NOT_A_PASS;
    return result(
      status,
      `could not check ${plural(packages.length, 'dependency', 'dependencies')}: ${failureText}; ${next}`,
      findings,
      details,
    );
  }
  if (problems.length > 0)
    return result(
      'error',
      `could not read ${problemText}; fix the file or rerun after regenerating it`,
      findings,
      details,
    );
  if (packages.length === 0) {
    return result('passed', env.nothingToCheck ?? 'no dependency to check', findings, details);
  }
  const below =
    findings.length > 0
      ? ` (${plural(findings.length, 'vulnerable dependency', 'vulnerable dependencies')} below ${failOn})`
      : '';
  return result(
    'passed',
    `checked ${plural(packages.length, 'dependency', 'dependencies')} against ${report.answered.join(', ')}: no known vulnerability at ${failOn} or above${below}`,
    findings,
    details,
  );
}

/**
 * Checks dependencies against the configured sources and turns the answer into a result: one finding per vulnerable
 * dependency, `failed` at `failOn` or above, and never `passed` when a source could not answer.
 */
export async function checkDependencies(
  dependencies: readonly CheckedDependency[],
  env: CheckEnvironment,
): Promise<ToolResult> {
  const packages = uniquePackages(dependencies);
  const report = await queryAdvisories(packages, env);
  const vulnerable: Vulnerable[] = [];
  for (const dependency of dependencies) {
    const advisories = report.matches.get(packageKey(dependency));
    if (advisories) vulnerable.push({ dependency, advisories });
  }
  const findings = vulnerable.map(({ dependency, advisories }) => toFinding(dependency, advisories));
  const details = resultDetails({ dependencies, packages, report, vulnerable, env });
  return verdict({ findings, packages, report, env, details });
}

export { describePackage };
