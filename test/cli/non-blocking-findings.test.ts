import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * "Blocking" means blocking: a validator that passed with a finding below its `failOn` (here a SARIF note, `low`,
 * under static analysis's default `failOn: high`) lists the finding but never calls it blocking, in any format.
 */
const SARIF = JSON.stringify({
  version: '2.1.0',
  runs: [
    {
      tool: { driver: { name: 'lint-notes', rules: [{ id: 'prefer-const' }] } },
      results: [
        {
          ruleId: 'prefer-const',
          level: 'note',
          message: { text: 'x is never reassigned' },
          locations: [{ physicalLocation: { artifactLocation: { uri: 'app.js' }, region: { startLine: 1 } } }],
        },
      ],
    },
  ],
});
const CONFIG = [
  'validation:',
  '  secrets: { enabled: false }',
  '  advisories: { enabled: false }',
  '  code_review: { enabled: false }',
  '  checks: { enabled: false }',
  'static_analysis:',
  '  codeql: { enabled: false }',
  '  semgrep: { enabled: false }',
  '  eslint: { enabled: false }',
  '  analyzers:',
  '    - name: notes',
  `      run: printf '%s' '${SARIF}' > "$TOLLGATE_SARIF"`,
  '      sarif: .tollgate/notes.sarif',
  '',
].join('\n');

let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'app.js': 'const a = 1;\n' } });
  await repo.write('app.js', 'let x = 1;\n');
});
afterAll(() => repo.cleanup());

test('a passing validator with a finding below failOn: listed, never "blocking"', async () => {
  const markdown = await runCli(['run'], { cwd: repo.root, env: repo.env });
  expect(markdown.exitCode, markdown.stderr).toBe(0);
  expect(markdown.stdout).toContain('# tollgate: PASSED');
  expect(markdown.stdout).toContain('x is never reassigned');
  expect(markdown.stdout).toContain('Findings: 1 not blocking (below what fails static_analysis)');
  expect(markdown.stdout).not.toMatch(/\b1 blocking/);

  // Each format from a run of its own: another line changes the tree, so no run answers from the last one's pass.
  await repo.write('app.js', 'let x = 1;\n// two\n');
  const github = await runCli(['run', '--format', 'github'], { cwd: repo.root, env: repo.env });
  expect(github.stdout).toContain('tollgate: passed: 0 blocking finding(s)');

  await repo.write('app.js', 'let x = 1;\n// three\n');
  const html = await runCli(['run', '--format', 'html'], { cwd: repo.root, env: repo.env });
  expect(html.stdout).toContain('data-blocking="0"');
  expect(html.stdout).toContain('0 blocking findings, 1 not blocking, 0 waived');
}, 120_000);
