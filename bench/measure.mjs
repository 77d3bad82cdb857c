// Shared by the bench scripts: medians and one output shape (a human line, and a JSON line with --json).
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function printResult({ name, line, values }) {
  console.log(line);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ bench: name, ...values }));
}
