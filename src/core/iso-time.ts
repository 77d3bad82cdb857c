/**
 * `date.toISOString()`, spelled from the date's UTC fields. V8's own `toISOString` asks the operating system's time
 * zone on its first call in a process (ICU reads and parses /etc/localtime: about a quarter of a millisecond), which a
 * UTC text never needs; the repeat run's fast path writes several of these and nothing else that needs the zone.
 * Years outside 0-9999 (six-digit form) and invalid dates (a RangeError) are left to `toISOString`.
 */
export function isoTime(date: Date = new Date()): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}` +
    `.${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
