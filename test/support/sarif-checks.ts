import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// Both packages are CommonJS with `default` exports that ESM type resolution misreads: load them as CommonJS.
const require = createRequire(import.meta.url);
const AjvDraft04 = require('ajv-draft-04') as typeof import('ajv-draft-04').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

/**
 * Every SARIF document tollgate writes must pass two bars: the official SARIF 2.1.0 JSON Schema, and what GitHub code
 * scanning accepts on upload (its documented limits and requirements, checked here since GitHub itself is not).
 */
const schema = JSON.parse(
  readFileSync(new URL('../fixtures/sarif/schema/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
);
const ajv = new AjvDraft04({ allErrors: true, strict: false });
addFormats(ajv);
const validateSchema = ajv.compile(schema);

/** GitHub's documented limits for one SARIF upload. */
export const GITHUB_LIMITS = { runs: 20, resultsPerRun: 25_000, rulesPerRun: 25_000, locationsPerResult: 1_000 };

interface SarifResult {
  ruleId?: string;
  locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } } }>;
  partialFingerprints?: Record<string, string>;
}

/** Problems, one line each; empty when the document passes both bars. */
export function sarifProblems(text: string): string[] {
  const problems: string[] = [];
  const document = JSON.parse(text) as { runs?: Array<Record<string, unknown>> };
  if (!validateSchema(document)) {
    for (const error of validateSchema.errors ?? [])
      problems.push(`schema: ${error.instancePath || '/'} ${error.message}`);
  }
  const runs = document.runs ?? [];
  if (runs.length > GITHUB_LIMITS.runs) problems.push(`github: ${runs.length} runs (at most ${GITHUB_LIMITS.runs})`);
  if (/"file:\/\//.test(text) || /"\/(?:home|tmp|root|Users|var)\//.test(text)) {
    problems.push('github: an absolute local path is in the file');
  }
  const categories = new Set<string>();
  runs.forEach((run, index) => {
    const results = (run.results ?? []) as SarifResult[];
    problems.push(...runProblems(run, index, categories));
    const rules = ((run.tool as { driver?: { rules?: unknown[] } } | undefined)?.driver?.rules ?? []) as unknown[];
    if (results.length > GITHUB_LIMITS.resultsPerRun) {
      problems.push(`github: runs[${index}] has ${results.length} results (at most ${GITHUB_LIMITS.resultsPerRun})`);
    }
    if (rules.length > GITHUB_LIMITS.rulesPerRun) problems.push(`github: runs[${index}] has ${rules.length} rules`);
    results.forEach((result, at) => {
      const where = `github: runs[${index}].results[${at}]`;
      if (!result.ruleId) problems.push(`${where}: no ruleId`);
      if (!result.partialFingerprints || Object.keys(result.partialFingerprints).length === 0) {
        problems.push(`${where}: no partialFingerprints`);
      }
      const locations = result.locations ?? [];
      if (locations.length === 0) problems.push(`${where}: no location (code scanning rejects the upload)`);
      if (locations.length > GITHUB_LIMITS.locationsPerResult) problems.push(`${where}: too many locations`);
      for (const location of locations) {
        const uri = location.physicalLocation?.artifactLocation?.uri;
        if (!uri) problems.push(`${where}: a location without an artifact URI`);
        else if (/^[a-z]+:/i.test(uri) || uri.startsWith('/')) problems.push(`${where}: URI ${uri} is not relative`);
        else if (/[\s#?]/.test(uri)) problems.push(`${where}: URI ${JSON.stringify(uri)} is not encoded`);
      }
    });
  });
  return problems;
}

interface SarifRule {
  id?: string;
  help?: { text?: string; markdown?: string };
  properties?: { tags?: string[]; 'security-severity'?: unknown };
}

/**
 * What makes code scanning treat a run as security results and keep runs apart: a category of its own per run,
 * `security-severity` (a number 0–10 written as a string) and help text on every rule tagged `security`, and an
 * unsuccessful invocation that says why.
 */
function runProblems(run: Record<string, unknown>, index: number, categories: Set<string>): string[] {
  const problems: string[] = [];
  const where = `github: runs[${index}]`;
  const id = (run.automationDetails as { id?: string } | undefined)?.id;
  if (!id) problems.push(`${where}: no automationDetails.id (uploads of two runs would replace each other)`);
  else {
    const category = id.slice(0, id.lastIndexOf('/') + 1) || id;
    if (categories.has(category)) problems.push(`${where}: category ${category} is used by another run`);
    categories.add(category);
  }
  const rules = ((run.tool as { driver?: { rules?: SarifRule[] } } | undefined)?.driver?.rules ?? []) as SarifRule[];
  for (const rule of rules) {
    const tags = rule.properties?.tags ?? [];
    if (tags.length > 20) problems.push(`${where}: rule ${rule.id} has ${tags.length} tags (at most 20)`);
    if (!tags.includes('security')) continue;
    const score = rule.properties?.['security-severity'];
    if (typeof score !== 'string' || !/^\d+(\.\d+)?$/.test(score) || Number(score) > 10) {
      problems.push(`${where}: security rule ${rule.id} has no security-severity string 0-10 (got ${String(score)})`);
    }
    if (!rule.help?.text) problems.push(`${where}: security rule ${rule.id} has no help text`);
  }
  for (const invocation of (run.invocations ?? []) as Array<Record<string, unknown>>) {
    const notes = (invocation.toolExecutionNotifications ?? []) as unknown[];
    if (invocation.executionSuccessful === false && notes.length === 0) {
      problems.push(`${where}: an unsuccessful invocation does not say why (toolExecutionNotifications)`);
    }
  }
  return problems;
}
