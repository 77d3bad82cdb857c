import { z } from 'zod';
import { type Ecosystem, GITHUB_ECOSYSTEM, normalizePackageName, type PackageVersion } from '../ecosystems.js';
import { matchRecord } from '../osv/affected.js';
import type { OsvEvent, OsvRecord } from '../osv/osv-record.js';
import { fetchJson } from './http-json.js';
import type { AdvisorySource } from './source.js';

/**
 * The GitHub Advisory Database through GraphQL `securityVulnerabilities` (one aliased field per package name, up to
 * 25 per request, 100 vulnerabilities per package). Needs a token; any token works, no scope needed.
 * https://docs.github.com/en/graphql/reference/queries#securityvulnerabilities
 */
const PACKAGES_PER_REQUEST = 25;

const nodeSchema = z.object({
  vulnerableVersionRange: z.string(),
  firstPatchedVersion: z.object({ identifier: z.string() }).nullable().optional(),
  severity: z.string(),
  package: z.object({ name: z.string(), ecosystem: z.string() }),
  advisory: z.object({
    ghsaId: z.string(),
    summary: z.string().optional(),
    permalink: z.string().optional(),
    withdrawnAt: z.string().nullable().optional(),
    identifiers: z.array(z.object({ type: z.string(), value: z.string() })).default([]),
    cvssSeverities: z
      .object({ cvssV3: z.object({ score: z.number(), vectorString: z.string().nullable() }).nullable().optional() })
      .nullable()
      .optional(),
  }),
});
type VulnerabilityNode = z.output<typeof nodeSchema>;

const responseSchema = z.object({
  data: z
    .record(z.string(), z.object({ nodes: z.array(nodeSchema) }))
    .nullable()
    .optional(),
  errors: z.array(z.object({ type: z.string().optional(), message: z.string() })).optional(),
});

const NODE_FIELDS =
  'nodes { vulnerableVersionRange firstPatchedVersion { identifier } severity package { name ecosystem } ' +
  'advisory { ghsaId summary permalink withdrawnAt identifiers { type value } cvssSeverities { cvssV3 { score vectorString } } } }';

/** One GraphQL document asking for several packages, each under its own alias. */
function buildVulnerabilityQuery(packages: readonly { ecosystem: Ecosystem; name: string }[]): {
  query: string;
  variables: Record<string, string>;
} {
  const declarations = packages.map((_, index) => `$p${index}: String!`).join(', ');
  const fields = packages
    .map(
      (pkg, index) =>
        `p${index}: securityVulnerabilities(ecosystem: ${GITHUB_ECOSYSTEM[pkg.ecosystem]}, package: $p${index}, first: 100) { ${NODE_FIELDS} }`,
    )
    .join(' ');
  return {
    query: `query(${declarations}) { ${fields} }`,
    variables: Object.fromEntries(packages.map((pkg, index) => [`p${index}`, pkg.name])),
  };
}

/**
 * GitHub's range syntax (`< 4.17.21`, `>= 2.0.0, < 2.3.1`, `<= 1.2.3`, `= 1.0.0`) as OSV events or listed versions.
 * https://docs.github.com/en/graphql/reference/objects#securityvulnerability
 */
export function githubRangeToOsv(range: string): { events: OsvEvent[]; versions: string[] } {
  const events: OsvEvent[] = [];
  const versions: string[] = [];
  let introduced = '0';
  for (const part of range
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)) {
    const match = /^(>=|<=|>|<|=)\s*(\S+)$/.exec(part);
    if (!match) continue;
    const [, operator, version] = match as unknown as [string, string, string];
    if (operator === '=') versions.push(version);
    else if (operator === '>=' || operator === '>') introduced = version;
    else if (operator === '<') events.push({ fixed: version });
    else events.push({ last_affected: version });
  }
  if (versions.length > 0 && events.length === 0 && introduced === '0') return { events: [], versions };
  return { events: [{ introduced }, ...events], versions };
}

/** Several nodes of one advisory (one per range) become one OSV record. */
function nodesToRecords(ecosystem: Ecosystem, nodes: readonly VulnerabilityNode[]): OsvRecord[] {
  const byId = new Map<string, OsvRecord>();
  for (const node of nodes) {
    if (node.advisory.withdrawnAt) continue;
    const { events, versions } = githubRangeToOsv(node.vulnerableVersionRange);
    const affected = {
      package: { ecosystem, name: node.package.name },
      ranges: events.length > 0 ? [{ type: 'ECOSYSTEM', events }] : [],
      versions,
      database_specific: { vulnerable_version_range: node.vulnerableVersionRange },
    };
    const existing = byId.get(node.advisory.ghsaId);
    if (existing) {
      existing.affected.push(affected);
      continue;
    }
    const vector = node.advisory.cvssSeverities?.cvssV3?.vectorString;
    byId.set(node.advisory.ghsaId, {
      id: node.advisory.ghsaId,
      aliases: node.advisory.identifiers.filter((id) => id.value !== node.advisory.ghsaId).map((id) => id.value),
      ...(node.advisory.summary ? { summary: node.advisory.summary } : {}),
      ...(vector ? { severity: [{ type: 'CVSS_V3', score: vector }] } : {}),
      affected: [affected],
      ...(node.advisory.permalink ? { references: [{ type: 'ADVISORY', url: node.advisory.permalink }] } : {}),
      database_specific: { severity: node.severity },
    });
  }
  return [...byId.values()];
}

export function createGithubSource(options: { url: string; tokenEnv: readonly string[] }): AdvisorySource {
  const source = 'github';
  return {
    name: source,
    async query(packages, io) {
      const token = options.tokenEnv.map((name) => io.env[name]).find((value) => value && value.trim() !== '');
      if (!token) {
        return {
          kind: 'unavailable',
          message: `github: no token in ${options.tokenEnv.join(' or ')}; set one (no scopes needed) to query the GitHub Advisory Database`,
        };
      }
      const names = new Map<string, { ecosystem: Ecosystem; name: string }>();
      for (const pkg of packages) names.set(`${pkg.ecosystem}\0${normalizePackageName(pkg.ecosystem, pkg.name)}`, pkg);
      const recordsByName = new Map<string, OsvRecord[]>();
      const list = [...names];
      for (let start = 0; start < list.length; start += PACKAGES_PER_REQUEST) {
        const chunk = list.slice(start, start + PACKAGES_PER_REQUEST);
        const answer = await fetchJson({
          source,
          url: options.url,
          method: 'POST',
          body: buildVulnerabilityQuery(chunk.map(([, pkg]) => pkg)),
          headers: { authorization: `bearer ${token}` },
          signal: io.signal,
          timeoutMs: io.timeoutMs,
        });
        if (answer.kind !== 'ok') return answer;
        const parsed = responseSchema.safeParse(answer.json);
        if (!parsed.success)
          return {
            kind: 'error',
            message: `github: unexpected GraphQL answer at ${parsed.error.issues[0]?.path.join('.')}`,
          };
        const errors = parsed.data.errors ?? [];
        if (errors.some((error) => error.type === 'RATE_LIMITED'))
          return { kind: 'rate_limited', message: 'github: GraphQL rate limit exceeded (RATE_LIMITED)' };
        if (errors.length > 0 || !parsed.data.data) {
          return { kind: 'error', message: `github: GraphQL error: ${errors[0]?.message ?? 'no data'}` };
        }
        chunk.forEach(([key, pkg], index) => {
          recordsByName.set(key, nodesToRecords(pkg.ecosystem, parsed.data.data![`p${index}`]?.nodes ?? []));
        });
      }
      return {
        kind: 'ok',
        records: packages.map((pkg) =>
          (recordsByName.get(`${pkg.ecosystem}\0${normalizePackageName(pkg.ecosystem, pkg.name)}`) ?? []).filter(
            (record) => matchRecord(record, pkg),
          ),
        ),
      };
    },
  };
}

export type { PackageVersion };
