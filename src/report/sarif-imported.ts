import type { Finding, ImportedSarif } from '../core/finding.js';
import { droppedNote, MAX_RESULTS_PER_RUN, mostSevere, SARIF_LEVEL } from './sarif-basics.js';

/** GitHub's limit of runs in one upload, less tollgate's own. */
const MAX_IMPORTED_RUNS = 19;

interface ImportedRunOptions {
  runId: string;
  locationOf: (finding: Finding) => object;
  suppressionsOf: (finding: Finding) => Record<string, unknown>;
  invocation: object;
}

/** `CodeQL` + `2.21.0` → one run per analyzer and version, as it was written. */
function driverKey(driver: ImportedSarif['driver']): string {
  return `${driver.name}\0${driver.semanticVersion ?? driver.version ?? ''}`;
}

/** `codeql`, `semgrep-oss`: a category segment from a tool name. */
function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'analyzer'
  );
}

/**
 * The results tollgate imported from other analyzers' SARIF, one run per analyzer: its own driver name, version and
 * rules (tags, `security-severity`, help), each result with its message, related locations, code flows and
 * fingerprints. Its category (`tollgate/run/<analyzer>/`) differs from tollgate's own and from the analyzer's own
 * uploads, so one never replaces another's alerts.
 */
export function importedRuns(findings: readonly Finding[], options: ImportedRunOptions): object[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = driverKey(finding.imported!.driver);
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  const usedCategories = new Set<string>();
  return [...groups.values()].slice(0, MAX_IMPORTED_RUNS).map((group) => {
    const driver = group[0]!.imported!.driver;
    let category = `tollgate/run/${slug(driver.name)}`;
    for (let n = 2; usedCategories.has(category); n++) category = `tollgate/run/${slug(driver.name)}-${n}`;
    usedCategories.add(category);
    const kept = mostSevere(group, MAX_RESULTS_PER_RUN);
    const rules = new Map<string, ImportedSarif['rule']>();
    for (const finding of kept) {
      const rule = finding.imported!.rule;
      if (!rules.has(rule.id)) rules.set(rule.id, rule);
    }
    const ruleIds = [...rules.keys()];
    return {
      tool: { driver: { ...driver, rules: [...rules.values()] } },
      automationDetails: { id: `${category}/${options.runId}` },
      invocations: [options.invocation],
      ...droppedNote(group.length - kept.length),
      results: kept.map((finding) => resultOf(finding, ruleIds, options)),
    };
  });
}

function resultOf(finding: Finding, ruleIds: readonly string[], options: ImportedRunOptions): object {
  const imported = finding.imported!;
  return {
    ruleId: imported.rule.id,
    ruleIndex: ruleIds.indexOf(imported.rule.id),
    level: SARIF_LEVEL[finding.severity],
    message: imported.message,
    locations: [options.locationOf(finding)],
    ...(imported.relatedLocations ? { relatedLocations: imported.relatedLocations } : {}),
    ...(imported.codeFlows ? { codeFlows: imported.codeFlows } : {}),
    partialFingerprints: { ...imported.partialFingerprints, tollgateFindingId: finding.id },
    ...options.suppressionsOf(finding),
    properties: { severity: finding.severity, sources: finding.sources },
  };
}
