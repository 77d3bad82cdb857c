import type { CompiledRule } from './compiled-rule.js';
import { isManifestPath } from './kubernetes-secret.js';
import { type FileSyntax, isDocumentationExample, isLockfile, syntaxOfName } from './syntax.js';

/** What the scan of a text needs from its path alone, worked out once per path rather than once per text. */
export interface PathFacts {
  /** Undefined for a file without an extension: the `#!` line at the start of its text decides. */
  readonly syntax: FileSyntax | undefined;
  readonly lockfile: boolean;
  readonly documentation: boolean;
  /** Whether the text may be a Kubernetes manifest (`.yaml`, `.yml`), whose Secrets' `data:` values are decoded. */
  readonly yaml: boolean;
  /**
   * The rules whose own allowlist or path filter exempts this path (their indices): one array per set of rules, shared
   * by every path with that set, so that what is worked out per set can be looked up by the array itself.
   */
  readonly exempt: readonly number[];
}

/**
 * More paths than this are forgotten all at once: a history scan meets the same few thousand paths commit after
 * commit, a tree scan each path once, and memory stays bounded either way.
 */
const REMEMBERED_PATHS = 4096;

/**
 * The facts of each path, remembered: a history scan gives one text per file per commit, most of them a few lines, and
 * working out the same path's syntax, lockfile name and rule exemptions again for each cost as much as scanning them.
 */
export class PathFactsCache {
  private readonly known = new Map<string, PathFacts>();
  /** Each set of exempt rules met, by its indices joined: a few sets at most (subsets of the path-filtered rules). */
  private readonly exemptSets = new Map<string, readonly number[]>();

  /** `pathFiltered`: the only rules some path may exempt (their allowlist's paths, `onlyPaths`). */
  constructor(private readonly pathFiltered: readonly CompiledRule[]) {}

  of(path: string): PathFacts {
    let facts = this.known.get(path);
    if (facts !== undefined) return facts;
    if (this.known.size >= REMEMBERED_PATHS) this.known.clear();
    facts = {
      syntax: syntaxOfName(path),
      lockfile: isLockfile(path),
      documentation: isDocumentationExample(path),
      yaml: isManifestPath(path),
      exempt: this.exemptRules(path),
    };
    this.known.set(path, facts);
    return facts;
  }

  private exemptRules(path: string): readonly number[] {
    const exempt: number[] = [];
    // Indexed loops, no closure: this runs for every path not met before (each of a history's commit messages).
    const filtered = this.pathFiltered;
    for (let i = 0; i < filtered.length; i++) {
      const compiled = filtered[i]!;
      const { allowlist, onlyPaths } = compiled.outline;
      if (anyMatches(allowlist?.paths, path) || (onlyPaths && !onlyPaths.test(path))) exempt.push(compiled.index);
    }
    const key = exempt.join(',');
    const known = this.exemptSets.get(key);
    if (known !== undefined) return known;
    this.exemptSets.set(key, exempt);
    return exempt;
  }
}

function anyMatches(patterns: readonly RegExp[] | undefined, path: string): boolean {
  if (patterns === undefined) return false;
  for (let i = 0; i < patterns.length; i++) if (patterns[i]!.test(path)) return true;
  return false;
}
