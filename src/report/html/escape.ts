/** Text into HTML: every markup character escaped, so a value from a run stays text in an element or attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A file name on one line, escaped: git allows any byte but NUL in a name, and a newline or tab in it would read as
 * two names, so control characters show as their escapes (`a\nb`).
 */
export function escapeName(name: string): string {
  return escapeHtml(name.replace(/[\u0000-\u001f\u007f]/g, (char) => JSON.stringify(char).slice(1, -1)));
}

/** A sentence whose `backticked` parts are code, escaped. */
export function escapeWithCode(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.length > 1 && part.startsWith('`') && part.endsWith('`')
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part),
    )
    .join('');
}

/** Validator names become class names: only `[a-z0-9_-]` survive. */
export function className(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
}
