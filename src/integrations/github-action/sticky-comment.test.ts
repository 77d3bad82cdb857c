import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findStickyComment, STICKY_MARKER, stickyCommentBody } from './sticky-comment.js';

describe('sticky comment', () => {
  it('finds its own body again, whatever the report says', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), fc.array(fc.string()), (report, others) => {
        const comments = [
          ...others.map((body, i) => ({ id: i + 1, body })),
          { id: 999, body: stickyCommentBody(report) },
        ];
        const found = findStickyComment(comments);
        expect(found === 999 || others[(found ?? 1) - 1]?.startsWith(STICKY_MARKER)).toBe(true);
      }),
    );
  });

  it('ignores a comment that only quotes the marker later on, and null bodies', () => {
    expect(
      findStickyComment([
        { id: 1, body: `> ${STICKY_MARKER}` },
        { id: 2, body: null },
      ]),
    ).toBeUndefined();
  });

  it("cuts a long report to fit GitHub's comment limit", () => {
    const body = stickyCommentBody('x'.repeat(100_000));
    expect(body.length).toBeLessThanOrEqual(65_536);
    expect(body).toMatch(/step summary\.$/);
  });
});
