import { formatSuppression } from '../../../secrets/suppressions.js';
import { nextStepFor, type SecretScanReport } from './scan-report.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** `**live**`, `invalid`, or `unknown (why)`. */
function verificationCell(finding: SecretScanReport['findings'][number]): string {
  if (finding.verification === 'live') return '**live**';
  if (finding.verification === 'unknown')
    return `unknown${finding.verificationReason ? ` (${finding.verificationReason})` : ''}`;
  return finding.verification ?? '';
}

export function renderScanMarkdown(report: SecretScanReport): string {
  const lines: string[] = [];
  const count = report.findings.length;
  const size = `${(report.scannedBytes / 1e6).toFixed(1)} MB`;
  const fixtures = report.fixtures.mode === 'block' ? 0 : report.fixtures.shown;
  const fixtureNote =
    fixtures > 0 ? ` (${fixtures} classified as test fixture${fixtures === 1 ? '' : 's'}, not blocking)` : '';
  lines.push(
    `## tollgate scan: ${count === 0 ? 'no secrets' : `${count} secret${count === 1 ? '' : 's'} found${fixtureNote}`}`,
  );
  lines.push('');
  lines.push(
    `Scanned ${report.scannedFiles} file${report.scannedFiles === 1 ? '' : 's'} (${size}, ${report.scope}) in ${report.durationMs} ms.`,
  );
  if (report.baselined > 0)
    lines.push(`${report.baselined} baselined finding${report.baselined === 1 ? '' : 's'} not shown.`);
  if (count > 0) {
    const verified = report.findings.some((finding) => finding.verification !== undefined);
    lines.push(
      '',
      `| Location | Rule | Type | Value |${verified ? ' Verification |' : ''}`,
      `|---|---|---|---|${verified ? '---|' : ''}`,
    );
    for (const finding of report.findings) {
      const where = `${finding.path}:${finding.line}:${finding.column}${finding.commit ? ` (${finding.commit.slice(0, 12)})` : ''}`;
      const verification = verified ? ` ${cell(verificationCell(finding))} |` : '';
      lines.push(
        `| \`${cell(where)}\` | \`secrets/${finding.ruleId}\` | ${cell(finding.title)}${finding.fixture ? ' (test fixture)' : ''} | \`${cell(finding.masked)}\` |${verification}`,
      );
    }
  }
  if (report.skipped.length > 0) {
    lines.push('', `Skipped ${report.skipped.length} file${report.skipped.length === 1 ? '' : 's'}:`);
    for (const skipped of report.skipped.slice(0, 20))
      lines.push(`- \`${cell(skipped.path)}\`: ${skipped.reason} (${cell(skipped.detail)})`);
    if (report.skipped.length > 20)
      lines.push(`- … and ${report.skipped.length - 20} more (use --format json for the full list)`);
  }
  if (report.allowed) {
    lines.push('', `Allowed (${report.allowed.length}):`);
    for (const allowed of report.allowed) lines.push(`- ${formatSuppression(allowed)}`);
  }
  if (report.rejected && report.rejected.length > 0) {
    lines.push('', `Recognised but not reported (${report.rejected.length}):`);
    for (const item of report.rejected)
      lines.push(
        `- \`${cell(`${item.path}:${item.line}:${item.column}`)}\` \`secrets/${item.ruleId}\` \`${cell(item.masked)}\`: ${cell(item.reason)}`,
      );
  }
  for (const note of report.notes) lines.push('', `Note: ${note}`);
  lines.push('', nextStepFor(report), '');
  return lines.join('\n');
}
