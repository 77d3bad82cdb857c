import type { ImportedSarif } from '../../../core/finding.js';
import { fillArguments } from './result-facts.js';
import type { SarifLocation, SarifResult, SarifRule, SarifTool } from './sarif-schema.js';

/**
 * An imported result as its analyzer described it, for the SARIF tollgate writes: the driver, the rule (tags,
 * `security-severity`, help and help URI), the message with its links, related locations and code flows. Every
 * location is re-based to a repo-relative URI; one outside the repository is dropped, and a message link to a dropped
 * related location becomes plain text (a link to nothing is what code scanning showed before).
 */

/** Bounds that keep one finding small in the event log; GitHub shows fewer than this anyway. */
const MAX_RELATED = 100;
const MAX_FLOWS = 10;
const MAX_FLOW_LOCATIONS = 100;

export type PathOf = (location: SarifLocation) => string | null;

function encodedUri(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** The location with a repo-relative URI, or null when its file is outside the repository. */
function rebased(location: SarifLocation, pathOf: PathOf): Record<string, unknown> | null {
  const path = pathOf(location);
  if (path === null) return null;
  const region = location.physicalLocation?.region;
  return {
    ...(location.id !== undefined && location.id >= 0 ? { id: location.id } : {}),
    physicalLocation: {
      artifactLocation: { uri: encodedUri(path), uriBaseId: '%SRCROOT%' },
      ...(region?.startLine ? { region: regionOf(region) } : {}),
    },
    ...(location.message?.text ? { message: { text: location.message.text } } : {}),
  };
}

function regionOf(region: NonNullable<NonNullable<SarifLocation['physicalLocation']>['region']>) {
  return {
    startLine: region.startLine,
    ...(region.startColumn ? { startColumn: region.startColumn } : {}),
    ...(region.endLine && region.endLine >= (region.startLine ?? 0) ? { endLine: region.endLine } : {}),
    ...(region.endColumn ? { endColumn: region.endColumn } : {}),
  };
}

function codeFlowsOf(result: SarifResult, pathOf: PathOf): Array<Record<string, unknown>> {
  const flows: Array<Record<string, unknown>> = [];
  for (const flow of (result.codeFlows ?? []).slice(0, MAX_FLOWS)) {
    const threadFlows = flow.threadFlows
      .map((thread) => ({
        locations: thread.locations.slice(0, MAX_FLOW_LOCATIONS).flatMap(({ location }) => {
          const kept = location ? rebased(location, pathOf) : null;
          return kept ? [{ location: kept }] : [];
        }),
      }))
      .filter((thread) => thread.locations.length > 0);
    if (threadFlows.length > 0)
      flows.push({ ...(flow.message?.text ? { message: { text: flow.message.text } } : {}), threadFlows });
  }
  return flows;
}

/** `[text](id)` links whose id is not among the kept related locations read as their text. */
function unlinkMissing(text: string, ids: ReadonlySet<number>): string {
  return text.replace(/\[([^\]]*)\]\((\d+)\)/g, (whole, label: string, id: string) =>
    ids.has(Number(id)) ? whole : label,
  );
}

/** The rule as the analyzer described it; only what SARIF's reportingDescriptor allows, nothing of ours. */
function ruleOf(id: string, rule: SarifRule | undefined): ImportedSarif['rule'] {
  if (!rule) return { id };
  const { defaultConfiguration, ...described } = rule;
  return {
    ...described,
    id,
    ...(defaultConfiguration?.level ? { defaultConfiguration: { level: defaultConfiguration.level } } : {}),
  };
}

export function importedSarifOf(input: {
  result: SarifResult;
  ruleId: string;
  rule: SarifRule | undefined;
  tool: SarifTool;
  pathOf: PathOf;
}): ImportedSarif {
  const { result, pathOf } = input;
  const driver = input.tool.driver;
  const related = (result.relatedLocations ?? []).slice(0, MAX_RELATED).flatMap((location) => {
    const kept = rebased(location, pathOf);
    return kept ? [kept] : [];
  });
  const ids = new Set(related.flatMap((location) => (typeof location.id === 'number' ? [location.id] : [])));
  const text = fillArguments(result.message.text ?? result.message.markdown ?? '', result.message.arguments);
  const markdown = result.message.markdown
    ? unlinkMissing(fillArguments(result.message.markdown, result.message.arguments), ids)
    : undefined;
  const flows = codeFlowsOf(result, pathOf);
  return {
    driver: {
      name: driver.name,
      ...(driver.version ? { version: driver.version } : {}),
      ...(driver.semanticVersion ? { semanticVersion: driver.semanticVersion } : {}),
      ...(driver.informationUri ? { informationUri: driver.informationUri } : {}),
    },
    rule: ruleOf(input.ruleId, input.rule),
    message: { text: unlinkMissing(text || input.ruleId, ids), ...(markdown ? { markdown } : {}) },
    ...(related.length > 0 ? { relatedLocations: related } : {}),
    ...(flows.length > 0 ? { codeFlows: flows } : {}),
    ...(result.partialFingerprints ? { partialFingerprints: result.partialFingerprints } : {}),
  };
}
