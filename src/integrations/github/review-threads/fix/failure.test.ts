import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../../../secrets/sample-tokens.js';
import { replyFailureReason, withoutBody } from './failure.js';

const BODY =
  'Fixed in a1b2c3d: the parser now rejects an empty header.\nThe new test covers the empty and the whitespace-only header.';

describe('a GitHub error never carries the reply it failed to post', () => {
  test.each([
    ['the whole body', `Could not post: ${BODY}`],
    ['one line', 'body invalid: The new test covers the empty and the whitespace-only header.'],
    ['a fragment cut mid-line', 'Validation failed: body "the parser now rejects an emp..." is not allowed'],
    ['its JSON-escaped form', `{"message":"bad","body":${JSON.stringify(BODY)}}`],
  ])('%s', (_what, message) => {
    const out = withoutBody(message, BODY);
    expect(out).toContain('<reply body>');
    for (let at = 0; at + 12 <= BODY.length; at++) expect(out).not.toContain(BODY.slice(at, at + 12));
  });

  test('what the message says besides the body is kept', () => {
    expect(withoutBody('Resource not accessible by integration', BODY)).toBe('Resource not accessible by integration');
  });

  test('a secret in the body is masked and the rest of its line still leaves', () => {
    const token = fakeChecksumToken('ghp_', 'reply-echo');
    const body = `Rotated the leaked key ${token} and moved it to the vault.`;
    const reason = replyFailureReason(
      new Error(`body rejected: "Rotated the leaked key ${token} and moved it"`),
      body,
      (text) => text.replaceAll(token, 'ghp_***'),
    );
    expect(reason).toBe('body rejected: "<reply body>"');
  });

  test('property: no 12-character run of the body survives, whatever the message wraps it in', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 12, maxLength: 200 }),
        fc.string(),
        fc.string(),
        fc.nat(),
        (body, before, after, cut) => {
          const start = cut % Math.max(1, body.length - 11);
          const fragment = body.slice(start, start + 12 + (cut % 20));
          const out = withoutBody(`${before}${fragment}${after}`, body);
          expect(out.includes(fragment)).toBe(false);
        },
      ),
    );
  });
});
