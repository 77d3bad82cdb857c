/**
 * One project whose check fails with a distinctive line after 300 passing ones: what the stop hook's reason, the MCP
 * result and the real agents' end-to-end tests must each carry to the agent (the failing line, not the head).
 */
export const FAILING_CHECK_CONFIG = [
  'checks:',
  '  - name: unit tests',
  '    run: node test.js',
  'validation:',
  '  code_review: { enabled: false }',
  '  static_analysis: { enabled: false }',
  '  advisories: { enabled: false }',
  '',
].join('\n');

/** `node test.js`: 300 passing lines, then `not ok 301 …` when `add` is broken (and `ok 301` with `reportPass`). */
export function addTestJs(options: { reportPass?: boolean } = {}): string {
  const failing =
    "if (add(1, 2) !== 3) { console.log('not ok 301 - add is broken: expected 3, got ' + add(1, 2)); process.exitCode = 1; }";
  return [
    "const { add } = require('./math.js');",
    "for (let i = 1; i <= 300; i++) console.log('ok ' + i + ' - adds ' + i + ' and 0');",
    ...(options.reportPass ? [`${failing} else {`, "console.log('ok 301 - add'); }"] : [failing]),
    '',
  ].join('\n');
}

export const MATH_JS = 'exports.add = (a, b) => a + b;\n';
