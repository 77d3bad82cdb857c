import { TollgateError } from '../../core/errors.js';
import { secretFingerprint } from '../../secrets/fingerprint.js';
import { loadScanner } from '../../secrets/load-rules.js';
import { maskSecret } from '../../secrets/mask.js';
import type { SecretsOptions } from '../../secrets/options.js';
import type { ScanTarget } from '../../secrets/scan-targets.js';
import { historyBatches, workTreeTargets } from '../../secrets/sources/git-sources.js';
import type { AlertLocation, AlertSubject } from './types.js';

/**
 * `validate-alert --local FINGERPRINT`: the finding of `tollgate scan` (or of the baseline, which is keyed by the same
 * fingerprint: SHA-256 of rule id, path and secret) turned into an alert. The work tree is scanned first, then the
 * history reachable from HEAD; the first 12 hex digits of the fingerprint are enough.
 */
export interface LocalFinding {
  subject: AlertSubject;
  /** Only for the masking writer. */
  secret: string;
}

export interface FindLocalFindingOptions {
  repoRoot: string;
  repoName: string;
  fingerprint: string;
  secretsOptions: SecretsOptions;
  env: NodeJS.ProcessEnv;
}

export async function findLocalFinding(options: FindLocalFindingOptions): Promise<LocalFinding> {
  const wanted = options.fingerprint.toLowerCase();
  if (!/^[0-9a-f]{12,64}$/.test(wanted)) {
    throw new TollgateError(
      'usage',
      `--local: expected a finding fingerprint (12 to 64 hex digits, from \`tollgate scan --format json\`), got ${JSON.stringify(options.fingerprint)}`,
    );
  }
  const { scanner } = await loadScanner(options.repoRoot, options.secretsOptions);
  const git = { repoRoot: options.repoRoot, env: options.env };
  // The history streams in batches and stops at the first match, so a long one is never held whole.
  async function* sources(): AsyncGenerator<readonly ScanTarget[]> {
    yield await workTreeTargets(git);
    yield* historyBatches({ ...git, range: 'HEAD' });
  }
  for await (const batch of sources()) {
    for (const target of batch) {
      const content = await target.read();
      if (content === null) continue;
      const text = typeof content === 'string' ? content : content.toString('utf8');
      for (const raw of scanner.scanText(text, { path: target.path })) {
        const fingerprint = secretFingerprint(raw.rule.id, target.path, raw.secret);
        if (!fingerprint.startsWith(wanted)) continue;
        const location: AlertLocation = {
          type: 'commit',
          path: target.path,
          startLine: target.lineMap?.[raw.line - 1] ?? raw.line,
          ...(target.commit ? { commitSha: target.commit } : {}),
        };
        return {
          secret: raw.secret,
          subject: {
            source: 'local',
            owner: 'local',
            repo: options.repoName,
            alertId: fingerprint.slice(0, 12),
            secretType: raw.rule.id,
            secretTypeDisplayName: raw.rule.title,
            maskedSecret: maskSecret(raw.secret),
            state: 'open',
            locations: [location],
          },
        };
      }
    }
  }
  throw new TollgateError(
    'not_found',
    `--local ${options.fingerprint}: no secret with this fingerprint in the work tree or the history of HEAD (list them with \`tollgate scan --all --format json\`)`,
  );
}
