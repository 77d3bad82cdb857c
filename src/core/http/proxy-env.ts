/**
 * Which proxy, if any, a request goes through, from the environment the way curl, npm and undici read it:
 * `https_proxy`/`HTTPS_PROXY` for https:// URLs, `http_proxy`/`HTTP_PROXY` for http:// ones (lower case first), and
 * `no_proxy`/`NO_PROXY`: a comma- or space-separated list of `*` (no proxy at all), host names (which also match
 * their subdomains; a leading `.` or `*.` means the same), IP addresses, each optionally with `:port`.
 */
export type ProxyEnv = Readonly<Record<string, string | undefined>>;

/** An empty variable counts as unset, so `http_proxy=` does not hide `HTTP_PROXY`. */
function read(env: ProxyEnv, name: string): string | undefined {
  for (const value of [env[name.toLowerCase()], env[name.toUpperCase()]])
    if (value !== undefined && value.trim() !== '') return value.trim();
  return undefined;
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** `[::1]` → `::1`; host names compare case-insensitively and without a trailing dot. */
function normalHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

interface NoProxyEntry {
  host: string;
  port: string | null;
}

function parseNoProxyEntry(raw: string): NoProxyEntry | null {
  let entry = raw.trim().toLowerCase();
  if (entry === '') return null;
  if (entry.startsWith('*.')) entry = entry.slice(1);
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ?? null };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: withPort[1]!, port: withPort[2]! };
  return { host: entry, port: null };
}

/** True when `no_proxy` says `url` is reached directly. */
export function bypassesProxy(url: URL, env: ProxyEnv): boolean {
  const list = read(env, 'no_proxy');
  if (!list) return false;
  const host = normalHost(url.hostname);
  const port = url.port || defaultPort(url.protocol);
  for (const raw of list.split(/[,\s]+/)) {
    if (raw.trim() === '*') return true;
    const entry = parseNoProxyEntry(raw);
    if (!entry) continue;
    if (entry.port !== null && entry.port !== port) continue;
    const suffix = entry.host.startsWith('.') ? entry.host : `.${entry.host}`;
    if (host === normalHost(entry.host.replace(/^\./, '')) || host.endsWith(suffix)) return true;
  }
  return false;
}

/**
 * The proxy for `url`, or null for a direct connection. A proxy value without a scheme (`proxy.corp:3128`) means
 * http://; anything but http:// and https:// proxies is refused with a message naming the variable.
 */
export function proxyFor(url: URL, env: ProxyEnv): URL | null {
  const name = url.protocol === 'https:' ? 'https_proxy' : url.protocol === 'http:' ? 'http_proxy' : null;
  if (!name) return null;
  const value = read(env, name);
  if (!value || bypassesProxy(url, env)) return null;
  let proxy: URL;
  try {
    proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new ProxyConfigError(`${name.toUpperCase()} is not a URL (expected http://HOST:PORT)`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:')
    throw new ProxyConfigError(
      `${name.toUpperCase()} uses ${proxy.protocol}// (only http:// and https:// proxies work)`,
    );
  return proxy;
}

/** A proxy variable that cannot be used; the message names the variable, never its value (it may hold a password). */
export class ProxyConfigError extends Error {}

/** The proxy as messages show it: scheme, host and port, never the credentials in its URL. */
export function describeProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
