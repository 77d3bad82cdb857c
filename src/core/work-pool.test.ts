import { expect, test } from 'vitest';
import { WorkPool } from './work-pool.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

test('no more handler calls are in flight than the limit, however many items are queued', async () => {
  let inFlight = 0;
  let most = 0;
  const handled: number[] = [];
  const pool = new WorkPool<number>(4, async (item) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await tick();
    handled.push(item);
    inFlight--;
  });
  for (let item = 0; item < 500; item++) pool.add(item);
  await pool.drained();
  expect(most).toBe(4);
  expect(pool.peakRunning).toBe(4);
  expect(handled.sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, item) => item));
});

test('items a handler adds are handled before the pool counts as drained', async () => {
  const seen: string[] = [];
  const pool: WorkPool<string> = new WorkPool(2, async (item) => {
    await tick();
    seen.push(item);
    if (item.length < 4) for (const child of ['a', 'b', 'c']) pool.add(`${item}${child}`);
  });
  pool.add('');
  await pool.drained();
  expect(seen).toHaveLength(1 + 3 + 9 + 27 + 81);
  expect(pool.peakRunning).toBeLessThanOrEqual(2);
});

test('the first failure rejects drained and stops what is still queued', async () => {
  let handled = 0;
  const pool = new WorkPool<number>(1, async (item) => {
    handled++;
    if (item === 7) throw new Error('item 7 failed');
  });
  for (let item = 0; item < 20; item++) pool.add(item);
  await expect(pool.drained()).rejects.toThrow('item 7 failed');
  expect(handled).toBeLessThan(20);
});

test('an empty pool is drained at once, and a limit below one is refused', async () => {
  await new WorkPool<number>(3, async () => {}).drained();
  expect(() => new WorkPool<number>(0, async () => {})).toThrow('limit');
});
