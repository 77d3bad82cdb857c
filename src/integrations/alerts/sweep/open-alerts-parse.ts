/**
 * Pure parts of listing open secret-scanning alerts (`GET /repos/{o}/{r}/secret-scanning/alerts`,
 * `GET /orgs/{org}/secret-scanning/alerts`): the query string, one page validated with zod, and the Link header's
 * next page. Secrets are not kept: the listing only decides which alerts to process.
 */
import { z } from 'zod';
import { TollgateError } from '../../../core/errors.js';

/**
 * GitHub's names: an owner is letters, digits and single hyphens (at most 39); a repository is letters, digits, `.`,
 * `_`, `-` (at most 100), never `.` or `..`. The name becomes folders under `--out`: `../..` must not.
 */
export const FULL_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

const listedAlertSchema = z.object({
  number: z.number().int().positive(),
  state: z.string(),
  secret_type: z.string(),
  validity: z.string().nullish(),
  updated_at: z.string().nullish(),
  created_at: z.string(),
  repository: z
    .object({ full_name: z.string().regex(FULL_NAME, "expected owner/repo in GitHub's characters") })
    .optional(),
});

export interface ListedAlert {
  readonly repo: string;
  readonly number: number;
  readonly secretType: string;
  readonly state: string;
  readonly validity?: string;
  /** `updated_at`, or `created_at` when the API gives none: the alert's input version for done.json. */
  readonly updatedAt: string;
}

export interface AlertListFilters {
  readonly state?: string;
  readonly secretType?: string;
  readonly validity?: string;
}

/** The listing query: 100 a page, filters as the API's own query parameters. */
export function alertListQuery(filters: AlertListFilters): string {
  const query = new URLSearchParams({ per_page: '100', state: filters.state ?? 'open' });
  if (filters.secretType) query.set('secret_type', filters.secretType);
  if (filters.validity) query.set('validity', filters.validity);
  return query.toString();
}

/** Validates one page; `repo` is the repository listed, or undefined for an org listing (each item names its own). */
export function parseAlertListPage(value: unknown, what: string, repo?: string): ListedAlert[] {
  const parsed = z.array(listedAlertSchema).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TollgateError(
      'io',
      `GitHub API ${what}: unexpected response (${issue?.path.join('.') || 'root'}: ${issue?.message})`,
    );
  }
  return parsed.data.map((item, index) => {
    const owner = item.repository?.full_name ?? repo;
    if (!owner) {
      throw new TollgateError('io', `GitHub API ${what}: unexpected response (${index}.repository.full_name: missing)`);
    }
    const alert: ListedAlert = {
      repo: owner,
      number: item.number,
      secretType: item.secret_type,
      state: item.state,
      updatedAt: item.updated_at ?? item.created_at,
    };
    return item.validity ? { ...alert, validity: item.validity } : alert;
  });
}

/** The `rel="next"` URL of a Link header, if any. */
export function nextPageUrl(link: string | null | undefined): string | undefined {
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}
