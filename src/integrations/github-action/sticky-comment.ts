/** Hidden marker that identifies tollgate's one PR comment so a rerun edits it instead of adding another. */
export const STICKY_MARKER = '<!-- tollgate:sticky-comment -->';

/** GitHub's limit on an issue comment body is 65,536 characters; leave room for the marker and the note. */
const MAX_BODY = 65_000;

/** The comment body: the marker on its own first line, then the (already masked) Markdown report, cut to fit. */
export function stickyCommentBody(markdownReport: string): string {
  const note = "\n\n…report cut to fit a comment; the full report is in the job's step summary.";
  const report =
    markdownReport.length > MAX_BODY ? `${markdownReport.slice(0, MAX_BODY - note.length)}${note}` : markdownReport;
  return `${STICKY_MARKER}\n${report}`;
}

/** The id of the first comment that carries the marker at the start of its body, if any. */
export function findStickyComment(comments: ReadonlyArray<{ id: number; body?: string | null }>): number | undefined {
  return comments.find((c) => (c.body ?? '').startsWith(STICKY_MARKER))?.id;
}
