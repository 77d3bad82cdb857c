import { basename } from 'node:path';
import type { LoadedConfig } from '../../../core/config/load.js';
import { TollgateError } from '../../../core/errors.js';
import { secretsOptionsSchema } from '../../../secrets/options.js';
import { fetchAlert } from '../github-rest.js';
import { findLocalFinding } from '../local-finding.js';
import { createRedactor } from '../mask.js';
import type { AlertSecrets, AlertSubject } from '../types.js';
import type { AlertTarget } from './types.js';

/** What the alert is, the values that must never be written in clear, and where its repository is cloned from. */
export interface GatheredAlert {
  subject: AlertSubject;
  secrets: AlertSecrets;
  cloneUrl: string;
}

export interface GatherOptions {
  target: AlertTarget;
  env: NodeJS.ProcessEnv;
  repoRoot: string | null;
  loaded: LoadedConfig | null;
  token: string | undefined;
}

const SLUG = /^[A-Za-z0-9_.-]+$/;

function checkSlug(value: string, what: string): void {
  if (!SLUG.test(value) || value === '.' || value === '..') {
    throw new TollgateError(
      'usage',
      `${what}: expected letters, digits, ".", "_" or "-", got ${JSON.stringify(value)}`,
    );
  }
}

/** Stage 1: the alert from GitHub's REST API, or a finding of `tollgate scan` in this repository. */
export async function gatherAlert(options: GatherOptions): Promise<GatheredAlert> {
  const credentials = options.token ? [options.token] : [];
  const t = options.target;
  if (t.kind === 'github') {
    checkSlug(t.owner, 'OWNER/REPO');
    checkSlug(t.repo, 'OWNER/REPO');
    if (!/^\d+$/.test(t.alertId))
      throw new TollgateError('usage', `ALERT_ID: expected a number, got ${JSON.stringify(t.alertId)}`);
    const redact = createRedactor({ credentials });
    const apiUrl = options.env.GITHUB_API_URL || 'https://api.github.com';
    const fetched = await fetchAlert(t.owner, t.repo, t.alertId, { apiUrl, token: options.token, redact });
    const secret = fetched.alert.secret ?? undefined;
    return {
      secrets: { credentials, ...(secret ? { alertSecret: secret } : {}) },
      cloneUrl: fetched.cloneUrl,
      subject: {
        source: 'github',
        owner: t.owner,
        repo: t.repo,
        alertId: t.alertId,
        secretType: fetched.alert.secret_type,
        secretTypeDisplayName: fetched.alert.secret_type_display_name ?? fetched.alert.secret_type,
        maskedSecret: secret ? createRedactor({ credentials: [], alertSecret: secret })(secret) : '(hidden by GitHub)',
        ...(fetched.alert.state ? { state: fetched.alert.state } : {}),
        ...(fetched.alert.validity ? { validity: fetched.alert.validity } : {}),
        resolution: fetched.alert.resolution ?? null,
        ...(fetched.alert.created_at ? { createdAt: fetched.alert.created_at } : {}),
        ...(fetched.alert.html_url ? { htmlUrl: fetched.alert.html_url } : {}),
        locations: fetched.locations,
      },
    };
  }
  const repoRoot = options.repoRoot;
  if (!repoRoot)
    throw new TollgateError('not_a_repo', '--local: run it inside the git repository that `tollgate scan` scanned');
  const found = await findLocalFinding({
    repoRoot,
    repoName: basename(repoRoot),
    fingerprint: t.fingerprint,
    secretsOptions: secretsOptionsSchema().parse(options.loaded?.config.secrets),
    env: options.env,
  });
  return { subject: found.subject, secrets: { credentials, alertSecret: found.secret }, cloneUrl: repoRoot };
}
