import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fakeToken } from '../../../secrets/sample-tokens.js';
import { createScannerRedactor } from '../redaction.js';
import { loadReplyTemplate, renderReply } from './reply-template.js';

const redact = createScannerRedactor();
const item = {
  threadId: 'PRRT_1',
  classification: 'invalid' as const,
  verification: [],
  checksRun: [],
  resolveRequested: false,
};

describe('reply templates', () => {
  test('a value cannot inject a placeholder, and secrets are redacted', async () => {
    const template = await loadReplyTemplate({ repoRoot: tmpdir() });
    const token = fakeToken('ghp_', 36);
    const body = renderReply({
      template,
      item: { ...item, fixSummary: `{{threadId}} uses ${token}` },
      resolutionPlanned: false,
      key: '0123456789abcdef',
      redact,
    });
    expect(body).toContain('{ {threadId} }');
    expect(body).not.toContain(token);
    expect(body).toContain('Leaving this thread open for you to resolve.');
  });

  test('a reply that claims a resolution before it happened is refused', async () => {
    const template = await loadReplyTemplate({ repoRoot: tmpdir() });
    expect(() =>
      renderReply({
        template,
        item: { ...item, replyBody: 'This has been resolved.' },
        resolutionPlanned: true,
        key: '0'.repeat(16),
        redact,
      }),
    ).toThrow(
      'reply to PRRT_1 (bundled templates/review-reply.md): says the thread is resolved, but the reply is posted before the resolution; reword it',
    );
  });

  test('an override with an unknown placeholder is a config error naming it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tollgate-template-'));
    try {
      await writeFile(join(root, 'reply.md'), '{{response}}\n{{nope}}\n');
      await expect(loadReplyTemplate({ repoRoot: root, configured: 'reply.md' })).rejects.toThrow(
        'reviewComments.replyTemplate reply.md: unknown placeholder {{nope}}; expected one of {{response}}, {{changes}}, {{verification}}, {{resolutionNote}}, {{classification}}, {{commitSha}}, {{threadId}}',
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
