import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CompiledRule, opensAt } from './compiled-rule.js';
import { GateCheck, nameRunEnd, separatorAt, shapeAllows } from './name-gate.js';
import type { KeywordOutput } from './prefilter.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';
import { outputShapes, StateShapes, shapeMask, withoutJsonRefuted } from './shape-masks.js';

/** The scanner's keyword automaton, as `scanView` hands it to the byte scan. */
const automaton = (new SecretScanner(builtinRules) as unknown as { automaton: SecretScanner['automaton'] }).automaton;
const outputs = [...new Set(automaton.outputs.flatMap((list) => list ?? []))] as KeywordOutput<CompiledRule>[];
const masked = outputs.filter((output) => outputShapes(output) !== null);

/** What may follow a keyword: the rest of a name (short or past any gate's run), a separator, a value. */
const follower = fc
  .tuple(
    fc.oneof(
      fc.array(fc.constantFrom('a', 'Z', '7', '_', '.', '-'), { maxLength: 6 }).map((chars) => chars.join('')),
      fc.integer({ min: 18, max: 90 }).map((length) => 'k'.repeat(length)),
    ),
    fc.array(fc.constantFrom(':', '=', '>', '"', "'", '\\', ' ', '\t', '\n', '\r', ']', '[', ',', '?', '!', '<', 'é'), {
      maxLength: 5,
    }),
    fc.array(fc.constantFrom('"', "'", '$', 'x', '1', '\\', 'é', ' ', '`', 's.', 'process.env.'), { maxLength: 4 }),
  )
  .map((parts) => parts.flat().join(''));

describe('shape masks', () => {
  test('the built-in keywords that wake many shaped gates have masks', () => {
    expect(masked.length).toBeGreaterThanOrEqual(5);
  });

  test('a rule keeps its bit exactly where its shape allows the hit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...masked), fc.string({ maxLength: 6 }), follower, (output, before, after) => {
        const text = `${before}secret${after}`;
        const end = before.length + 'secret'.length;
        const runEnd = nameRunEnd(text, end);
        const separator = separatorAt(text, runEnd);
        const mask = shapeMask(outputShapes(output)!, text, end, runEnd, separator);
        const gates = new GateCheck(text);
        expect([gates.nameEnd(end), gates.separatorAfter(end)]).toEqual([runEnd, separator]);
        for (const [index, item] of output.items.entries()) {
          const allowed = item.gateShape === undefined || shapeAllows(item.gateShape, text, end, runEnd, separator);
          expect((mask & (1 << index)) !== 0, `rule ${index} after ${JSON.stringify(after)}`).toBe(allowed);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('a rule whose bit a JSON value clears opens no window there', () => {
    const keys = fc.constantFrom('"a": "', '"name": "', '"user_key" :\t"', '{"', 'f("', 'x = "', '"', '');
    const names = fc
      .array(fc.constantFrom('cfg', '_', 'a.b', '-', '7', ' '), { maxLength: 3 })
      .map((parts) => parts.join(''));
    const tails = fc.constantFrom('_2", "b": 1', '", ', '",', '"}', '": "x"', '" value="x">', ' = "x"', '_a\n');
    let cleared = 0;
    fc.assert(
      fc.property(fc.constantFrom(...masked), keys, names, tails, (output, key, name, tail) => {
        const text = `${key}${name}secret${tail}`;
        const end = key.length + name.length + 'secret'.length;
        const gates = new GateCheck(text);
        const shapes = outputShapes(output)!;
        const mask = shapeMask(shapes, text, end, gates.nameEnd(end), gates.separatorAfter(end));
        const kept = withoutJsonRefuted(shapes, mask, gates, end);
        for (const [index, item] of output.items.entries()) {
          if ((mask & ~kept & (1 << index)) === 0) continue;
          cleared++;
          expect(opensAt(item, text, end, new GateCheck(text)), `${item.rule.id} in ${JSON.stringify(text)}`).toBe(
            false,
          );
        }
      }),
      { numRuns: 3000 },
    );
    // The texts must clear bits, or the property proves nothing.
    expect(cleared).toBeGreaterThan(300);
  });

  test('a keyword of few shaped rules, or too many rules, has none', () => {
    const few = outputs.find((output) => output.items.every((item) => item.gateShape === undefined));
    if (few) expect(outputShapes(few)).toBeNull();
    const many = { length: 3, nameWord: false, items: new Array(32).fill(masked[0]!.items[0]) };
    expect(outputShapes(many)).toBeNull();
  });

  test('the tables per state line up with the automaton', () => {
    const shapes = new StateShapes(automaton);
    for (const [state, list] of automaton.outputs.entries()) {
      if (list === undefined) continue;
      const tables = shapes.of(state);
      expect(tables.length).toBe(list.length);
      expect(shapes.of(state)).toBe(tables);
    }
  });
});
