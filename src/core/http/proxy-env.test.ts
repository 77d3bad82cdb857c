import { describe, expect, test } from 'vitest';
import { bypassesProxy, describeProxy, proxyFor } from './proxy-env.js';

const at = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.href ?? null;

describe('proxyFor', () => {
  test('https:// URLs use HTTPS_PROXY, http:// ones HTTP_PROXY, lower case first', () => {
    const env = { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://plain:3' };
    expect(at('https://api.osv.dev/v1/querybatch', env)).toBe('http://lower:2/');
    expect(at('http://api.osv.dev/', env)).toBe('http://plain:3/');
    expect(at('https://api.osv.dev/', { HTTPS_PROXY: 'http://upper:1' })).toBe('http://upper:1/');
    expect(at('https://api.osv.dev/', { HTTP_PROXY: 'http://plain:3' })).toBeNull();
    expect(at('https://api.osv.dev/', {})).toBeNull();
    expect(at('https://api.osv.dev/', { https_proxy: '', HTTPS_PROXY: 'http://upper:1' })).toBe('http://upper:1/');
  });

  test('a proxy without a scheme is http://; other schemes are refused naming the variable, not the value', () => {
    expect(at('https://x.test/', { HTTPS_PROXY: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    expect(() => at('https://x.test/', { HTTPS_PROXY: 'socks5://user:hunter2@proxy:1080' })).toThrow(
      /^HTTPS_PROXY uses socks5:\/\/ \(only http:\/\/ and https:\/\/ proxies work\)$/,
    );
  });

  test('messages show the proxy without its credentials', () => {
    expect(describeProxy(new URL('http://user:hunter2@proxy.corp:3128'))).toBe('http://proxy.corp:3128');
  });
});

describe('NO_PROXY', () => {
  const cases: [string, string, boolean][] = [
    ['*', 'https://api.github.com/', true],
    ['api.github.com', 'https://api.github.com/graphql', true],
    ['github.com', 'https://api.github.com/', true],
    ['.github.com', 'https://api.github.com/', true],
    ['*.github.com', 'https://api.github.com/', true],
    ['.github.com', 'https://github.com/', true],
    ['github.com', 'https://notgithub.com/', false],
    ['API.GitHub.com', 'https://api.github.com/', true],
    ['osv.dev, api.github.com', 'https://api.github.com/', true],
    ['osv.dev api.github.com', 'https://api.github.com/', true],
    ['api.github.com:443', 'https://api.github.com/', true],
    ['api.github.com:8443', 'https://api.github.com/', false],
    ['127.0.0.1:8080', 'http://127.0.0.1:8080/', true],
    ['127.0.0.1:8080', 'http://127.0.0.1:9090/', false],
    ['127.0.0.1', 'http://127.0.0.1:9090/', true],
    ['[::1]:8080', 'http://[::1]:8080/', true],
    ['::1', 'http://[::1]:8080/', true],
    ['', 'https://api.github.com/', false],
  ];
  test.each(cases)('NO_PROXY=%j and %s: bypass %s', (noProxy, url, bypass) => {
    expect(bypassesProxy(new URL(url), { NO_PROXY: noProxy })).toBe(bypass);
    expect(bypassesProxy(new URL(url), { no_proxy: noProxy })).toBe(bypass);
    expect(at(url, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }) === null).toBe(bypass);
  });
});
