import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArtifactLocation, UriBaseIds } from './sarif-schema.js';

export interface UriContext {
  /** Absolute path of the repository root: every path we return is relative to it. */
  repoRoot: string;
  /** What `%SRCROOT%` (and an unknown or undefined base id) means: where the producer ran. Default the repo root. */
  sourceRoot: string;
  /** The run's `originalUriBaseIds`. */
  baseIds: UriBaseIds;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Percent-decodes a relative URI reference; a malformed escape is kept as written rather than dropping the result. */
function decodeRelative(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

/** An absolute file-system path for an absolute URI or path, or null for a scheme other than `file:`. */
function absoluteFromUri(uri: string): string | null {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  }
  if (SCHEME.test(uri)) return null;
  if (uri.startsWith('/')) return decodeRelative(uri);
  return null;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The absolute directory a `uriBaseId` stands for, following chains of base ids (§3.14.14). */
function resolveBase(id: string | undefined, context: UriContext, seen: Set<string> = new Set()): string {
  if (id === undefined || seen.has(id)) return context.sourceRoot;
  seen.add(id);
  const entry = context.baseIds[id];
  if (!entry?.uri) return context.sourceRoot;
  const absolute = absoluteFromUri(entry.uri);
  if (absolute !== null) {
    // A producer that ran elsewhere (CI runner, container) records its own checkout path; our files live here.
    return isInside(context.repoRoot, absolute) ? absolute : context.sourceRoot;
  }
  return resolve(resolveBase(entry.uriBaseId, context, seen), decodeRelative(entry.uri));
}

/**
 * The repository-relative POSIX path a SARIF `artifactLocation` names, or null when it names nothing inside the
 * repository (no uri, another scheme, a path outside).
 */
export function repoPathOf(location: ArtifactLocation | undefined, context: UriContext): string | null {
  const uri = location?.uri;
  if (!uri) return null;
  if (SCHEME.test(uri) && !uri.startsWith('file:')) return null;
  const absolute = absoluteFromUri(uri) ?? resolve(resolveBase(location.uriBaseId, context), decodeRelative(uri));
  if (!isInside(context.repoRoot, absolute)) return null;
  const rel = relative(context.repoRoot, absolute);
  if (rel === '') return null;
  return sep === '/' ? rel : rel.split(sep).join('/');
}
