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
  runs.forEach((run, index) => {
    const results = (run.results ?? []) as SarifResult[];
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
