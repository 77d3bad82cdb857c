/**
 * Appends every item of `items` to `target`. `target.push(...items)` passes each item as an argument: past about
 * 120,000 items (a tree of that many files, a scan with that many findings) it throws "Maximum call stack size
 * exceeded". Use this wherever the list can grow with the input.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there are none; `Math.max(...values)` overflows the stack the same way. */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let max = empty;
  for (const value of values) if (value > max || Number.isNaN(value)) max = value;
  return max;
}
