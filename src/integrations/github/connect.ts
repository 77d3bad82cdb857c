import { runProcess } from '../../core/process.js';
import { createGhTransport } from './gh-transport.js';
import { GithubError } from './github-error.js';
import { createGraphqlClient, type GraphqlClient, type GraphqlClientOptions } from './graphql-client.js';
import { createHttpsTransport, DEFAULT_GRAPHQL_URL } from './https-transport.js';
import type { GraphqlTransport } from './transport.js';

export interface ConnectOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The repository's host (github.com or a GitHub Enterprise host). */
  host: string;
}

/**
 * `gh api graphql` when gh is installed and logged in to the host; else a token from `GH_TOKEN` / `GITHUB_TOKEN`
 * over HTTPS to `GITHUB_GRAPHQL_URL` (default api.github.com, or `https://HOST/api/graphql` for Enterprise).
 * `TOLLGATE_GITHUB_TRANSPORT=gh|https` forces one.
 */
async function selectTransport(options: ConnectOptions): Promise<GraphqlTransport> {
  const { env, host } = options;
  const forced = env.TOLLGATE_GITHUB_TRANSPORT;
  if (forced !== undefined && forced !== 'gh' && forced !== 'https') {
    throw new GithubError(
      'gh_unavailable',
      `TOLLGATE_GITHUB_TRANSPORT: expected "gh" or "https", got ${JSON.stringify(forced)}`,
    );
  }
  const hostname = host === 'github.com' ? undefined : host;
  if (forced !== 'https') {
    const status = await runProcess('gh', ['auth', 'status', ...(hostname ? ['--hostname', hostname] : [])], {
      cwd: options.cwd,
      env: { ...env, GH_PROMPT_DISABLED: '1', NO_COLOR: '1' },
      timeoutMs: 15_000,
    });
    if (!status.spawnError && status.exitCode === 0) {
      return createGhTransport({ cwd: options.cwd, env, ...(hostname ? { hostname } : {}) });
    }
    if (forced === 'gh') {
      throw new GithubError(
        status.spawnError ? 'gh_unavailable' : 'auth_required',
        status.spawnError
          ? 'TOLLGATE_GITHUB_TRANSPORT=gh: gh is not installed; install GitHub CLI'
          : `gh is not logged in to ${host}; run \`gh auth login --hostname ${host}\``,
      );
    }
  }
  const token = env.GH_TOKEN || env.GITHUB_TOKEN;
  if (!token) {
    throw new GithubError(
      'auth_required',
      `GitHub: no credentials for ${host}; run \`gh auth login\`, or set GH_TOKEN (or GITHUB_TOKEN) to a token that can read pull requests`,
    );
  }
  const url = env.GITHUB_GRAPHQL_URL || (hostname ? `https://${hostname}/api/graphql` : DEFAULT_GRAPHQL_URL);
  return createHttpsTransport({ url, token });
}

export async function connectGithub(
  options: ConnectOptions & Omit<GraphqlClientOptions, 'transport'> & { transport?: GraphqlTransport },
): Promise<GraphqlClient> {
  const transport = options.transport ?? (await selectTransport(options));
  return createGraphqlClient({ ...options, transport });
}

/** A client that refuses mutations: `tollgate comments` holds this one, so it cannot mutate even by mistake. */
export function readOnlyClient(client: GraphqlClient): GraphqlClient {
  return {
    get rateLimit() {
      return client.rateLimit;
    },
    get mutationsSent() {
      return client.mutationsSent;
    },
    request(document, variables, schema) {
      if (/^\s*mutation\b/.test(document)) {
        throw new Error('internal: a read-only command tried to send a GraphQL mutation');
      }
      return client.request(document, variables, schema);
    },
  };
}
