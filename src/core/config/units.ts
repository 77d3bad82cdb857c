/**
 * Durations and sizes as people write them ("90s", "1MB"): parsed and written back. No zod here, so the small
 * bundles (the no-change run's, the stop hook's) can format without loading it; the config schemas are in duration.ts.
 */
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

/** A size: "1MB", "512KB", or bytes. */
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

/** The shortest exact form of a byte count: "1MB", "512KiB", else "1234B" (a bare number reads as a count of files). */
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
  return `${bytes}B`;
}
