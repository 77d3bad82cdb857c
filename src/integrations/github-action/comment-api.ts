import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import { httpFetch } from '../../core/http/http-fetch.js';
import { findStickyComment, stickyCommentBody } from './sticky-comment.js';

/**
 * The one sticky pull-request comment: found again by its hidden marker across every page of the PR's comments and
 * edited in place, or created once. The token goes only in the Authorization header and never into a message.
 */
export interface CommentTarget {
  apiUrl: string;
  token: string;
  owner: string;
  repo: string;
  number: number;
}

/**
 * The token may not write to the pull request: the read-only token GitHub gives a fork's pull request (403 "Resource
 * not accessible by integration"), or a workflow without `pull-requests: write`. Not a failure of the gate.
 */
export class CommentNotAllowed extends TollgateError {
  constructor(readonly request: string) {
    super('io', `${request}: HTTP 403, the token cannot write pull-request comments`);
  }
}

const commentPage = z.array(z.object({ id: z.number(), body: z.string().nullable().optional() }));

export async function upsertStickyComment(
  target: CommentTarget,
  markdown: string,
): Promise<{ action: 'created' | 'updated'; id: number }> {
  const base = target.apiUrl.replace(/\/+$/, '');
  const repoPath = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
  const body = stickyCommentBody(markdown);
  let url: string | null = `${base}${repoPath}/issues/${target.number}/comments?per_page=100`;
  while (url) {
    const response = await call(target, 'GET', url);
    const page = commentPage.safeParse(await response.json());
    if (!page.success) throw new TollgateError('io', `GET ${redactUrl(url)}: not a list of comments`);
    const id = findStickyComment(page.data);
    if (id !== undefined) {
      await call(target, 'PATCH', `${base}${repoPath}/issues/comments/${id}`, { body });
      return { action: 'updated', id };
    }
    url = nextPage(response.headers.get('link'));
  }
  const created = await call(target, 'POST', `${base}${repoPath}/issues/${target.number}/comments`, { body });
  const id = z.object({ id: z.number() }).safeParse(await created.json());
  return { action: 'created', id: id.success ? id.data.id : 0 };
}

/** `<…?page=2>; rel="next", <…>; rel="last"` → the next page's URL. */
function nextPage(link: string | null): string | null {
  const next = link?.split(',').find((part) => /rel="next"/.test(part));
  return next ? (/<([^>]+)>/.exec(next)?.[1] ?? null) : null;
}

async function call(target: CommentTarget, method: string, url: string, json?: unknown): Promise<Response> {
  let response: Response;
  try {
    response = await httpFetch(url, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new TollgateError('io', `${method} ${redactUrl(url)}: ${(error as Error).message}`);
  }
  // A rate limit is a 403 too; it is not a refusal (and has its own handling), so it stays an error here.
  if (response.status === 403 && response.headers.get('x-ratelimit-remaining') !== '0')
    throw new CommentNotAllowed(`${method} ${redactUrl(url)}`);
  if (!response.ok) {
    const hint = response.status === 403 || response.status === 404 ? ' (the token needs pull-requests: write)' : '';
    throw new TollgateError('io', `${method} ${redactUrl(url)}: HTTP ${response.status}${hint}`);
  }
  return response;
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}
