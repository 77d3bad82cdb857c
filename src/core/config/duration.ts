import { z } from 'zod';
import { describeValue } from './describe-value.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(?:(\d+(?:\.\d+)?)(ms|s|m|h|d))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;

/** Parses "90s", "10m", "1h30m", "250ms" to milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim();
  if (!DURATION.test(trimmed)) return null;
  let total = 0;
  for (const match of trimmed.matchAll(PART)) total += Number(match[1]) * UNIT_MS[match[2]!]!;
  return Math.round(total);
}

/** A duration as people write it back: "250ms", "1.5s", "10m", "1h30m" (rounded first, so never "9m60s"). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const tenths = Math.round(ms / 100) / 10;
  if (tenths < 60) return `${tenths}s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return [hours > 0 ? `${hours}h` : '', minutes > 0 ? `${minutes}m` : '', seconds > 0 ? `${seconds}s` : ''].join('');
}

/**
 * The longest duration a config may set. Timers cannot wait longer than about 24.8 days (a longer one fires at once),
 * and no validation run should take more than a day.
 */
const MAX_DURATION_MS = 24 * 3_600_000;

/**
 * A duration in config: a string like "90s" or a plain number of seconds. Parses to milliseconds; the error text is
 * the one users see (`expected a duration like "90s", got "fast"`).
 */
const durationProblem = (value: unknown) => `expected a duration like "90s", got ${describeValue(value)}`;

export const durationSchema = z
  // The union's own error covers inputs that are neither a string nor a number (`true`, a list).
  .union([z.string(), z.number()], { error: (issue) => durationProblem(issue.input) })
  .transform((value, ctx) => {
    const ms =
      typeof value === 'number'
        ? value > 0 && Number.isFinite(value)
          ? Math.round(value * 1000)
          : null
        : parseDuration(value);
    if (ms !== null && ms > MAX_DURATION_MS) {
      ctx.addIssue({ code: 'custom', message: `expected a duration of at most 24h, got ${describeValue(value)}` });
      return z.NEVER;
    }
    if (ms !== null && ms > 0) return ms;
    ctx.addIssue({ code: 'custom', message: durationProblem(value) });
    return z.NEVER;
  });

/** How long a decision holds (a waiver's expiry): "7d", "12h"; at most a year. */
export const lifetimeSchema = z
  .string({ error: (issue) => `expected a duration like "7d" or "12h", got ${describeValue(issue.input)}` })
  .transform((value, ctx) => {
    const ms = parseDuration(value);
    if (ms !== null && ms > 0 && ms <= 366 * 86_400_000) return ms;
    ctx.addIssue({
      code: 'custom',
      message: `expected a duration like "7d" or "12h" (at most 366d), got ${describeValue(value)}`,
    });
    return z.NEVER;
  });

/** A size in config: "1MB", "512KB", or bytes. */
const SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?$/i;
const SIZE_UNIT: Record<string, number> = {
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
};

export function parseSize(text: string): number | null {
  const match = SIZE.exec(text.trim());
  if (!match) return null;
  return Math.round(Number(match[1]) * SIZE_UNIT[(match[2] ?? 'b').toLowerCase()]!);
}

/** The shortest exact form of a byte count: "1MB", "512KiB", or the plain number. */
export function formatSize(bytes: number): string {
  const units: [string, number][] = [
    ['GB', 1e9],
    ['GiB', 1024 ** 3],
    ['MB', 1e6],
    ['MiB', 1024 ** 2],
    ['KB', 1000],
    ['KiB', 1024],
  ];
  for (const [unit, size] of units) if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  return String(bytes);
}

const sizeProblem = (value: unknown) => `expected a size like "1MB" or a number of bytes, got ${describeValue(value)}`;

export const sizeSchema = z
  .union([z.string(), z.number()], { error: (issue) => sizeProblem(issue.input) })
  .transform((value, ctx) => {
    const bytes = typeof value === 'number' ? value : parseSize(value);
    if (bytes !== null && bytes > 0 && Number.isFinite(bytes)) return Math.round(bytes);
    ctx.addIssue({ code: 'custom', message: sizeProblem(value) });
    return z.NEVER;
  });
