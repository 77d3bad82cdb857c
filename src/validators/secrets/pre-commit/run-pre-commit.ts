import { join } from 'node:path';
import { openProject } from '../../../core/config/open-project.js';
import { ONE_SHOT } from '../../../core/state/atomic-write.js';
import { baselinePath, readBaseline } from '../../../secrets/baseline.js';
import { applyFixtureMode, fixturesNote, isFixture } from '../../../secrets/fixtures.js';
import { loadScanner } from '../../../secrets/load-rules.js';
import { type SecretsOptions, secretsOptionsSchema } from '../../../secrets/options.js';
import { lineSet, scanTargets } from '../../../secrets/scan-targets.js';
import { stagedTargets } from '../../../secrets/sources/git-sources.js';
import { ADDED_LINES_POLICY } from '../../../secrets/suppressions.js';
import { formatSecretLine } from '../../../secrets/to-finding.js';
import { clearAttempts, countAttempt } from './attempts.js';
import { gitPath } from './git-paths.js';
import { type RedactFile, redactStaged } from './redact.js';

/**
 * `tollgate hook pre-commit`: scan what the commit would record (the index), block with masked findings, count
 * consecutive blocked attempts on the same findings and, only when configured, redact after N attempts.
 */
export interface PreCommitResult {
  exitCode: 0 | 1;
  /** For stderr; masked only. */
  message: string;
}

const SHOWN = 5;
/** Said of a finding whose allow marker this commit adds. No remedy an agent could type: a person decides. */
const SELF_ALLOWED = 'its allow marker is new in this commit, which does not clear a high or critical secret';

export async function runPreCommit(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<PreCommitResult> {
  const { repoRoot, loaded } = await openProject({ cwd: options.cwd, env: options.env, configCwd: 'repoRoot' });
  const secrets: SecretsOptions = secretsOptionsSchema().parse(loaded.config.secrets, ONE_SHOT);
  const writeFiles = loaded.config.permissions.writeFiles === 'allow';
  // Suppression files as the policy has them (docs/policy.md): a commit cannot clear its own secret by adding one.
  const read = loaded.policy?.read;
  const { scanner, imported } = await loadScanner(repoRoot, secrets, read);
  const baseline = await readBaseline(baselinePath(repoRoot, secrets.baseline), secrets.baseline, read);
  const targets = await stagedTargets({ repoRoot, env: options.env });
  // Every scanned line is one this commit adds: its allow markers do not clear a high or critical secret.
  const outcome = await scanTargets(targets, {
    scanner,
    allowPaths: secrets.paths,
    baseline,
    imported,
    gate: ADDED_LINES_POLICY,
  });
  const attemptsFile = await gitPath(repoRoot, 'tollgate/pre-commit-attempts.json', options.env);
  // Test fixtures (secrets.fixtures: report) are named but do not block the commit, nor are they ever redacted.
  const { blocking, fixtures } = applyFixtureMode(outcome.findings, secrets.fixtures);
  outcome.findings = blocking;
  if (outcome.findings.length === 0) {
    await clearAttempts(attemptsFile);
    const note = secrets.fixtures === 'report' ? fixturesNote(fixtures.length, 0, 'tollgate scan --staged') : '';
    return { exitCode: 0, message: note ? `tollgate: ${note}` : '' };
  }
  const attempt = await countAttempt(
    attemptsFile,
    outcome.findings.map((finding) => finding.fingerprint),
  );
  const limit = secrets.redactAfterAttempts;
  const lines = outcome.findings
    .slice(0, SHOWN)
    .map((finding) => `  ${formatSecretLine(finding)}${finding.suppression ? ` (${SELF_ALLOWED})` : ''}`);
  if (outcome.findings.length > SHOWN)
    lines.push(`  … and ${outcome.findings.length - SHOWN} more (tollgate scan --staged)`);

  if (limit !== false && attempt >= limit && writeFiles) {
    const backupDir = join(
      await gitPath(repoRoot, 'tollgate/redacted', options.env),
      new Date().toISOString().replace(/[:.]/g, '-'),
    );
    const files = await rawSecretsOf(targets, scanner, secrets, baseline);
    const count = await redactStaged(files, { repoRoot, backupDir, env: options.env });
    await clearAttempts(attemptsFile);
    return {
      exitCode: 0,
      message: [
        `tollgate: redacted ${count} secret${count === 1 ? '' : 's'} after ${attempt} blocked attempts (secrets.redactAfterAttempts: ${limit}); the commit proceeds with <REDACTED:rule-id> in their place:`,
        ...lines,
        `tollgate: the original bytes are in ${backupDir} (mode 0600). Rotate these credentials: they were on disk in plain text.`,
      ].join('\n'),
    };
  }
  const hint =
    limit !== false && !writeFiles
      ? ' Redaction is configured but permissions.writeFiles is "deny".'
      : limit !== false
        ? ` After ${limit} attempts on the same findings they will be redacted.`
        : '';
  return {
    exitCode: 1,
    message: [
      `tollgate: commit blocked: ${outcome.findings.length} secret${outcome.findings.length === 1 ? '' : 's'} in staged changes (attempt ${attempt}):`,
      ...lines,
      `tollgate: remove them from the staged files (git add again), load them from the environment, and rotate any that were real. If one is not a secret, that is for a person to decide.${hint}`,
    ].join('\n'),
  };
}

function isFixtureSecret(
  item: { rule: { id: string; generic?: boolean }; secret: string; docExample?: boolean },
  path: string,
): boolean {
  const { rule, secret, docExample } = item;
  return isFixture({ ruleId: rule.id, generic: rule.generic === true, path, secret, docExample: docExample === true });
}

/** The raw secrets again, for redaction only: they stay in this function's memory. */
async function rawSecretsOf(
  targets: Awaited<ReturnType<typeof stagedTargets>>,
  scanner: Awaited<ReturnType<typeof loadScanner>>['scanner'],
  secrets: SecretsOptions,
  baseline: ReadonlySet<string>,
): Promise<RedactFile[]> {
  const { secretFingerprint } = await import('../../../secrets/fingerprint.js');
  const picomatch = (await import('picomatch')).default;
  const allowed = secrets.paths.length > 0 ? picomatch(secrets.paths, { dot: true }) : () => false;
  const files: RedactFile[] = [];
  for (const target of targets) {
    if (allowed(target.path)) continue;
    const content = await target.read();
    if (content === null) continue;
    const text = typeof content === 'string' ? content : content.toString('utf8');
    const only = target.onlyLines ? lineSet(target.onlyLines) : null;
    const raw = scanner
      .scanText(text, { path: target.path, ...(only ? { acceptLine: only } : {}) })
      .filter((item) => !baseline.has(secretFingerprint(item.rule.id, target.path, item.secret)))
      .filter((item) => secrets.fixtures === 'block' || !isFixtureSecret(item, target.path));
    if (raw.length > 0) files.push({ path: target.path, stagedText: text, secrets: raw });
  }
  return files;
}
