import { runProcess } from '../../core/process.js';
import { GithubError } from './github-error.js';
import {
  type GraphqlHttpResponse,
  type GraphqlRequest,
  type GraphqlTransport,
  type SendOptions,
  timeoutMessage,
} from './transport.js';

export interface GhTransportOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--hostname` for GitHub Enterprise; omitted for github.com. */
  hostname?: string;
  /** Binary name or path. Default `gh` (found on PATH). */
  bin?: string;
  /** Cap on captured output. Default 512 MiB: far above any page, so the cap never decides whether a read works. */
  maxOutputBytes?: number;
}

const DEFAULT_GH_OUTPUT_CAP = 512 * 1024 * 1024;

/**
 * `gh api graphql --include --input -`: the request (query and variables) goes on stdin as JSON, so a reply body
 * is never on a command line (visible in `ps`) and a body that starts with `@` is never read as a file name.
 * `--include` prints the status line and headers before the body, which is how rate-limit headers reach the client.
 */
export function ghArgv(hostname?: string): string[] {
  return ['api', 'graphql', '--include', '--input', '-', ...(hostname ? ['--hostname', hostname] : [])];
}

export function createGhTransport(options: GhTransportOptions): GraphqlTransport {
  const bin = options.bin ?? 'gh';
  return {
    description: 'gh api graphql',
    async send(request: GraphqlRequest, sendOptions: SendOptions): Promise<GraphqlHttpResponse> {
      const result = await runProcess(bin, ghArgv(options.hostname), {
        cwd: options.cwd,
        env: { ...options.env, GH_PROMPT_DISABLED: '1', NO_COLOR: '1', GH_NO_UPDATE_NOTIFIER: '1' },
        input: JSON.stringify(request),
        timeoutMs: sendOptions.timeoutMs,
        ...(sendOptions.signal ? { signal: sendOptions.signal } : {}),
        maxOutputBytes: options.maxOutputBytes ?? DEFAULT_GH_OUTPUT_CAP,
      });
      if (result.spawnError) {
        throw new GithubError(
          'gh_unavailable',
          `could not run ${bin}: ${result.spawnError.code ?? result.spawnError.message}; install GitHub CLI, or set GH_TOKEN`,
        );
      }
      if (result.timedOut) throw new GithubError('timeout', timeoutMessage(sendOptions.timeoutMs, 'gh api graphql'));
      if (result.aborted) throw new GithubError('network', 'gh api graphql was cancelled');
      if (result.truncated) {
        throw new GithubError('bad_response', 'gh api graphql printed more than the output cap; lower --max-threads');
      }
      const parsed = parseIncludedResponse(result.stdout);
      if (parsed) return parsed;
      throw ghFailure(result.stderr, result.exitCode);
    },
  };
}

/** Splits `HTTP/2.0 200 OK\r\nHeader: value\r\n\r\n{…}` into status, headers and body; null when it is not that. */
export function parseIncludedResponse(stdout: string): GraphqlHttpResponse | null {
  const statusLine = /^HTTP\/[\d.]+ (\d{3})[^\r\n]*\r?\n/.exec(stdout);
  if (!statusLine) return null;
  const rest = stdout.slice(statusLine[0].length);
  const split = /\r?\n\r?\n/.exec(rest);
  const head = split ? rest.slice(0, split.index) : rest;
  const body = split ? rest.slice(split.index + split[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine[1]), headers, body };
}

/** gh failed before any HTTP answer: not logged in, no network, or something else it printed on stderr. */
function ghFailure(stderr: string, exitCode: number | null): GithubError {
  const firstLine = stderr.trim().split('\n')[0]?.slice(0, 300) ?? '';
  if (/not logged in|gh auth login|authentication|HTTP 401/i.test(stderr)) {
    return new GithubError(
      'auth_required',
      `gh is not authenticated (${firstLine}); run \`gh auth login\`, or set GH_TOKEN`,
    );
  }
  if (/could not resolve host|connection refused|timeout|network is unreachable|no such host/i.test(stderr)) {
    return new GithubError('network', `gh api graphql could not reach GitHub: ${firstLine}`);
  }
  return new GithubError(
    'graphql_failed',
    `gh api graphql failed (exit ${exitCode ?? 'signal'})${firstLine ? `: ${firstLine}` : ' with no output'}`,
  );
}
