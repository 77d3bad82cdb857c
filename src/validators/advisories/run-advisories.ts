import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import { ensureTollgateDir } from '../../core/state/tollgate-dir.js';
import { type CheckedDependency, checkDependencies } from './check-dependencies.js';
import { changedDependencies, type UnresolvedRange } from './dependency-diff.js';
import { checkAllStep, projectEcosystem, vetPackageStep } from './next-check.js';
import type { AdvisoriesInput, AdvisoriesOptions } from './options.js';
import { parsePackageSpec } from './package-spec.js';

export async function runAdvisories(ctx: ToolContext<AdvisoriesOptions, AdvisoriesInput>): Promise<ToolResult> {
  const options = { ...ctx.options, all: ctx.input.all ?? ctx.options.all };
  const reader = ctx.reader ?? 'cli';
  const environment = {
    options,
    repoRoot: ctx.repoRoot,
    cacheDir: ensureTollgateDir(ctx.repoRoot).cacheDir,
    signal: ctx.signal,
    env: ctx.env,
  };
  if (ctx.input.packages && ctx.input.packages.length > 0) {
    const parsed = ctx.input.packages.map(parsePackageSpec);
    const bad = parsed.flatMap((spec) => (spec.ok ? [] : [spec.problem]));
    if (bad.length > 0) return result('invalid_input', `advisories input packages: ${bad.join('; ')}`);
    const dependencies: CheckedDependency[] = parsed.flatMap((spec) =>
      spec.ok ? [{ ...spec.value, origin: 'explicit' as const }] : [],
    );
    ctx.progress(`checking ${dependencies.length} package(s) against ${options.sources.join(', ')}`);
    return checkDependencies(dependencies, environment);
  }
  const diff = await changedDependencies(ctx, { all: options.all });
  const dependencies: CheckedDependency[] = diff.dependencies.map((dependency) => ({
    ...dependency,
    origin: 'lockfile' as const,
  }));
  if (diff.lockfiles.length === 0 && diff.problems.length === 0 && diff.unresolved.length === 0) {
    const vet = vetPackageStep(reader, projectEcosystem(ctx.repoRoot));
    return result(
      'passed',
      `no lockfile or manifest changed; nothing to check. To vet a dependency before adding it, ${vet}`,
    );
  }
  ctx.progress(`checking ${dependencies.length} dependency version(s) from ${diff.lockfiles.join(', ')}`);
  const checked = await checkDependencies(dependencies, {
    ...environment,
    problems: diff.problems,
    nothingToCheck: `${diff.lockfiles.join(', ')} changed, but no dependency was added or upgraded${options.all ? '' : ` (${checkAllStep(reader)} to check every locked dependency)`}`,
  });
  return withUnresolvedRanges(checked, diff.unresolved);
}

/**
 * Specs added to a manifest with no lockfile that are not readable ranges (a dist-tag such as `latest`, an unknown
 * operator): which versions they admit is not known, so they were not checked, and the result cannot be a pass. Found vulnerabilities stay a failure; the note says what else is open.
 */
function withUnresolvedRanges(checked: ToolResult, unresolved: readonly UnresolvedRange[]): ToolResult {
  if (unresolved.length === 0) return checked;
  const list = unresolved
    .slice(0, 8)
    .map((entry) => `${entry.name} ${entry.spec} (${entry.manifest})`)
    .join(', ');
  const more = unresolved.length > 8 ? ` and ${unresolved.length - 8} more` : '';
  const note = `${unresolved.length} dependency spec(s) added without a lockfile could not be read as version ranges, so they were not checked: ${list}${more}. Commit a lockfile (e.g. \`npm install --package-lock-only\`, \`poetry lock\`, \`cargo generate-lockfile\`, \`bundle lock\`) so the exact versions are checked, or pin exact versions.`;
  const details = { ...checked.details, unresolvedRanges: unresolved };
  if (checked.status === 'passed') return result('incomplete', `${checked.summary} ${note}`, checked.findings, details);
  return { ...checked, summary: `${checked.summary} ${note}`, details };
}
