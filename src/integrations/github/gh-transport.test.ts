import { describe, expect, test } from 'vitest';
import { ghArgv, parseIncludedResponse } from './gh-transport.js';

describe('gh api graphql', () => {
  test('sends the request on stdin, never on the command line', () => {
    expect(ghArgv()).toEqual(['api', 'graphql', '--include', '--input', '-']);
    expect(ghArgv('ghe.example.com')).toEqual([
      'api',
      'graphql',
      '--include',
      '--input',
      '-',
      '--hostname',
      'ghe.example.com',
    ]);
  });

  test.each([
    [
      'CRLF headers',
      'HTTP/2.0 403 Forbidden\r\nRetry-After: 60\r\nX-Ratelimit-Remaining: 12\r\n\r\n{"a":1}',
      403,
      { 'retry-after': '60', 'x-ratelimit-remaining': '12' },
      '{"a":1}',
    ],
    [
      'LF headers',
      'HTTP/1.1 200 OK\nContent-Type: application/json\n\n{"data":{}}',
      200,
      { 'content-type': 'application/json' },
      '{"data":{}}',
    ],
  ])('parses --include output with %s', (_name, stdout, status, headers, body) => {
    expect(parseIncludedResponse(stdout)).toEqual({ status, headers, body });
  });

  test('anything else is not a response', () => {
    expect(parseIncludedResponse('gh: not logged in')).toBeNull();
  });
});
