/**
 * A fallback order for ecosystems without their own comparator here (Maven, NuGet, Packagist): numeric parts compare
 * as numbers, word parts as lower-case strings and before numbers (so 1.0-beta < 1.0 < 1.0.1).
 */
export function compareGeneric(a: string, b: string): number {
  const split = (text: string) =>
    text
      .trim()
      .replace(/^v/i, '')
      .toLowerCase()
      .split(/[.\-_+]/)
      .filter(Boolean);
  const left = split(a);
  const right = split(b);
  const length = Math.max(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const x = left[index];
    const y = right[index];
    if (x === undefined) return /^\d+$/.test(y!) ? (Number(y) === 0 ? 0 : -1) : 1;
    if (y === undefined) return /^\d+$/.test(x) ? (Number(x) === 0 ? 0 : 1) : -1;
    const xNumeric = /^\d+$/.test(x);
    const yNumeric = /^\d+$/.test(y);
    if (xNumeric && yNumeric) {
      const difference = Number(x) - Number(y);
      if (difference !== 0) return Math.sign(difference);
    } else if (xNumeric !== yNumeric) return xNumeric ? 1 : -1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
