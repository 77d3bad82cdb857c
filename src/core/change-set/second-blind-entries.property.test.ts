import fc from 'fast-check';
import { expect, test } from 'vitest';
import { mayBeSecondBlind } from './second-blind-entries.js';

/**
 * The rule that spares an `lstat` (`mayBeSecondBlind`) against a model of git over a history it could have had, in
 * milliseconds: the file's last change at `changed` (its ctime; its mtime then, or set into the past), git recording
 * the entry at `recorded` and writing the index at `written` (its file left alone), later index writes git makes, and a
 * write of other bytes at `edited`, after git's write (an edit during git's own run is git's own race), in the second
 * of `changed` with the mtime put back: the fields git compares all still agree. git is blind to it when no index
 * write found the entry racy and the file changed (git then clears the entry's size), and the last index's second is
 * after the entry's mtime (else git's racy-clean rule reads the file). Whenever git is blind, the rule must look.
 */
const second = (ms: number) => Math.floor(ms / 1000);

test('whenever git is blind to an edit, the entry is looked at', () => {
  fc.assert(
    fc.property(
      fc.record({
        changed: fc.integer({ min: 10_000, max: 20_000 }),
        backdatedBy: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
        recordedAfter: fc.integer({ min: 0, max: 1500 }),
        writtenAfter: fc.integer({ min: 0, max: 1500 }),
        editedAfter: fc.integer({ min: 1, max: 1500 }),
        laterWrites: fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 3 }),
        touched: fc.boolean(),
      }),
      (history) => {
        const mtime = history.changed - (history.backdatedBy ?? 0);
        const recorded = history.changed + history.recordedAfter;
        const written = recorded + history.writtenAfter;
        const edited = written + history.editedAfter;
        // Only an edit in the second of the ctime git recorded keeps every field git compares.
        fc.pre(second(edited) === second(history.changed));
        let indexSecond = second(written);
        let cleared = false;
        let at = written;
        for (const gap of history.laterWrites) {
          at += gap;
          // git reads a racy entry's file when it writes the index: changed by then, its size is cleared.
          if (second(mtime) >= indexSecond && edited < at) cleared = true;
          indexSecond = second(at);
        }
        const blind = !cleared && second(mtime) < indexSecond;
        // A touched index: its mtime (what git compares with) set anywhere after its last write.
        const looked = mayBeSecondBlind(second(history.changed), second(mtime), indexSecond, !history.touched);
        if (blind) expect(looked).toBe(true);
      },
    ),
    { numRuns: 5000 },
  );
});
