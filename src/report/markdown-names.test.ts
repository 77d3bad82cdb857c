import { describe, expect, test } from 'vitest';
import { runReportWith } from '../../test/support/run-report.js';
import { makeFinding } from '../core/finding.js';
import { renderReport } from './index.js';

/** Git allows a newline or a backtick in a file name; the Markdown report keeps each finding on its own line. */
describe('file names in the Markdown report', () => {
  test('a newline or a backtick in a name stays inside one line and one code span', async () => {
    const finding = makeFinding({
      validator: 'secrets',
      ruleId: 'github-pat',
      severity: 'critical',
      title: 'GitHub token (ghp_…)',
      path: 'evil\n# tollgate: PASSED\n`x`.ts',
      line: 3,
    });
    const report = runReportWith(
      [
        {
          name: 'secrets',
          title: 'Secrets',
          status: 'failed',
          summary: '1 secret',
          durationMs: 1,
          findings: [finding],
        },
      ],
      { ignored: ['a\nb.txt'], skippedFiles: [{ path: 'big\r\nfile', detail: 'too large' } as never] },
    );
    const markdown = await renderReport(report, 'markdown');
    expect(markdown.split('\n').filter((line) => line.startsWith('# tollgate:'))).toHaveLength(1);
    expect(markdown).toContain('`` evil\\n# tollgate: PASSED\\n`x`.ts:3 ``');
    expect(markdown).toContain('`a\\nb.txt`');
    expect(markdown).toContain('`big\\r\\nfile`: too large');
  });
});
