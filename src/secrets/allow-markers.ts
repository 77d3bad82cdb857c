/**
 * Inline allows, in the spellings teams already use, so a team can switch scanners without editing its code:
 * tollgate's own `tollgate:allow [reason]`, gitleaks' `gitleaks:allow`, and detect-secrets' `pragma: allowlist secret`
 * on the secret's line; `tollgate:allow [reason]` on a comment line of its own, or detect-secrets'
 * `pragma: allowlist nextline secret`, allow the line below.
 */
export interface AllowMarker {
  marker: string;
  /** The marker is on the line above the secret. */
  above: boolean;
  reason?: string;
}

const SAME_LINE = ['tollgate:allow', 'gitleaks:allow', 'pragma: allowlist secret'] as const;
const NEXT_LINE_PRAGMA = 'pragma: allowlist nextline secret';
/** A line that is only a comment: `#`, `//`, `/*`, `*`, `--`, `;`, `%`, `<!--`, `'` or `REM` first. */
const COMMENT_ONLY = /^\s*(?:#|\/\/|\/\*|\*|--|;|%|<!--|'|REM\b)/i;
const MAX_REASON = 200;

export function allowMarkerOn(line: string): AllowMarker | null {
  // The next-line pragma contains `pragma: allowlist`, but it is about the line below, not this one.
  if (line.includes(NEXT_LINE_PRAGMA)) return null;
  const marker = SAME_LINE.find((candidate) => hasMarker(line, candidate));
  if (!marker) return null;
  const reason = marker === 'tollgate:allow' ? reasonAfter(line, marker) : undefined;
  return { marker, above: false, ...(reason ? { reason } : {}) };
}

export function allowMarkerAbove(line: string): AllowMarker | null {
  if (line.includes(NEXT_LINE_PRAGMA)) return { marker: NEXT_LINE_PRAGMA, above: true };
  if (!hasMarker(line, 'tollgate:allow') || !COMMENT_ONLY.test(line)) return null;
  const reason = reasonAfter(line, 'tollgate:allow');
  return { marker: 'tollgate:allow', above: true, ...(reason ? { reason } : {}) };
}

/** The marker as a word of its own (`tollgate:allowed` is not `tollgate:allow`). */
function hasMarker(line: string, marker: string): boolean {
  for (let at = line.indexOf(marker); at !== -1; at = line.indexOf(marker, at + 1)) {
    if (!/\w/.test(line[at + marker.length] ?? '')) return true;
  }
  return false;
}

/** The words after the marker, up to the end of the comment. */
function reasonAfter(line: string, marker: string): string | undefined {
  const rest = line.slice(line.indexOf(marker) + marker.length);
  if (rest.length > 0 && !/^[\s:,-]/.test(rest)) return undefined;
  const reason = rest
    .replace(/(?:\*\/|-->).*$/s, '')
    .replace(/^[\s:,-]+/, '')
    .trim();
  return reason.length > 0 ? reason.slice(0, MAX_REASON) : undefined;
}
