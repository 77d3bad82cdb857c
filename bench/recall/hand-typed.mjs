/**
 * Whether an example's value was typed by hand rather than issued (`abcdef1234567890`, `xxxxxxxx`, `sk_test_1234`):
 * a run of six characters in keyboard or alphabet order, or one character six times. tollgate drops such values on
 * purpose (they are placeholders in real code), so the recall bench reports recall with and without them.
 */
const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '9876543210'];

export function looksHandTyped(value) {
  const text = value.toLowerCase();
  if (/(.)\1{5}/.test(text)) return true;
  for (const sequence of SEQUENCES)
    for (let start = 0; start + 6 <= sequence.length; start++)
      if (text.includes(sequence.slice(start, start + 6))) return true;
  return /example|sample|dummy|placeholder|your[_-]?(?:api|key|token|secret)|redacted/.test(text);
}
