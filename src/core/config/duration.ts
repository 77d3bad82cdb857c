import { z } from 'zod';
import { describeValue } from './describe-value.js';
import { parseDuration, parseSize } from './units.js';

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

const sizeProblem = (value: unknown) => `expected a size like "1MB" or a number of bytes, got ${describeValue(value)}`;

export const sizeSchema = z
  .union([z.string(), z.number()], { error: (issue) => sizeProblem(issue.input) })
  .transform((value, ctx) => {
    const bytes = typeof value === 'number' ? value : parseSize(value);
    if (bytes !== null && bytes > 0 && Number.isFinite(bytes)) return Math.round(bytes);
    ctx.addIssue({ code: 'custom', message: sizeProblem(value) });
    return z.NEVER;
  });
