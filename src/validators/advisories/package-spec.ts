import { ECOSYSTEM_SPELLINGS, ecosystemFromName, type PackageVersion } from './ecosystems.js';

export type ParsedSpec = { ok: true; value: PackageVersion } | { ok: false; problem: string };

/**
 * `ecosystem:name@version` (`npm:lodash@4.17.15`, `npm:@babel/core@7.0.0`, `go:golang.org/x/net@v0.7.0`,
 * `pypi:django@3.2.0`) or a versioned purl (`pkg:npm/lodash@4.17.15`).
 */
export function parsePackageSpec(spec: string): ParsedSpec {
  const text = spec.trim();
  const purl = /^pkg:([a-z]+)\/(.+)@([^@/]+)$/i.exec(text);
  const colon = purl ? -1 : text.indexOf(':');
  const ecosystemName = purl ? purl[1]! : colon > 0 ? text.slice(0, colon) : '';
  const rest = purl ? `${decodeURIComponent(purl[2]!)}@${purl[3]!}` : text.slice(colon + 1);
  const ecosystem = ecosystemFromName(ecosystemName);
  if (!ecosystem) {
    return {
      ok: false,
      problem: `${JSON.stringify(spec)}: expected ecosystem:name@version with an ecosystem of ${ECOSYSTEM_SPELLINGS.join(', ')}`,
    };
  }
  const at = rest.lastIndexOf('@');
  const name = at > 0 ? rest.slice(0, at) : '';
  const version = at > 0 ? rest.slice(at + 1) : '';
  if (!name || !version)
    return { ok: false, problem: `${JSON.stringify(spec)}: expected name@version after "${ecosystemName}:"` };
  return { ok: true, value: { ecosystem, name, version } };
}
