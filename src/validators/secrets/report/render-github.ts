import { type Annotation, KIND_OF, renderAnnotations } from '../../../report/github.js';
import { messageCommitOf } from '../../../secrets/commit-message-place.js';
import type { SecretScanReport } from './scan-report.js';

/**
 * `tollgate scan --format github`: one workflow command per secret on its file and line (masked value only), and a
 * warning per file that could not be scanned, so a scan in CI annotates the pull request without code scanning.
 */
export function renderScanGithub(report: SecretScanReport): string {
  const count = report.findings.length;
  const fixtures = count - report.blocking;
  const headline = `tollgate scan: ${count === 0 ? 'no secrets' : `${count} secret(s) found`}${fixtures > 0 ? ` (${fixtures} test fixture(s), not blocking)` : ''} in ${report.scannedFiles} file(s) (${report.scope})`;
  const found: Annotation[] = report.findings.map((finding) => ({
    kind: KIND_OF[finding.severity],
    // A commit's message is no file of the pull request: the annotation stands alone, its text names the commit.
    ...(messageCommitOf(finding.path) ? {} : { file: finding.path, line: finding.line, col: finding.column }),
    title: `secrets/${finding.ruleId}: ${finding.title}${finding.fixture && report.fixtures.mode !== 'block' ? ' (test fixture, not blocking)' : ''}`,
    message: [
      `${finding.title} (${finding.masked})${placeInHistory(finding)}.`,
      finding.verification
        ? `Provider check: ${finding.verification}${finding.verificationReason ? ` (${finding.verificationReason})` : ''}.`
        : '',
      'Remove it, rotate it, and load it from the environment or a secret manager.',
    ]
      .filter(Boolean)
      .join('\n'),
  }));
  const unread: Annotation[] = report.skipped
    .filter((skipped) => skipped.reason !== 'allowlisted')
    .map((skipped) => ({
      kind: 'warning',
      file: skipped.path,
      title: 'tollgate: file not scanned',
      message: `${skipped.path} was not scanned: ${skipped.detail}.`,
    }));
  return renderAnnotations(headline, [...found, ...unread]);
}

/** ` added in <commit>`, or where in a commit's message; empty for a file of the work tree. */
function placeInHistory(finding: SecretScanReport['findings'][number]): string {
  const messageOf = messageCommitOf(finding.path);
  if (messageOf) return ` in the message of commit ${messageOf.slice(0, 12)}, line ${finding.line}`;
  return finding.commit ? ` added in ${finding.commit.slice(0, 12)}` : '';
}
