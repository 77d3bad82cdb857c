import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePullRequestEvent } from './event.js';

const good = {
  pull_request: { number: 7, base: { ref: 'main', sha: 'abc123' } },
  repository: { full_name: 'octo/widgets' },
};

describe('parsePullRequestEvent', () => {
  it('reads the PR number, base and repository', () => {
    expect(parsePullRequestEvent(good)).toEqual({
      number: 7,
      baseRef: 'main',
      baseSha: 'abc123',
      owner: 'octo',
      repo: 'widgets',
    });
  });

  it('is undefined for events without a pull request', () => {
    expect(parsePullRequestEvent({ ref: 'refs/heads/main' })).toBeUndefined();
    expect(parsePullRequestEvent(null)).toBeUndefined();
  });

  it('names the bad field in one line', () => {
    const bad = { ...good, pull_request: { number: 7, base: { ref: 3, sha: 'x' } } };
    expect(() => parsePullRequestEvent(bad)).toThrow(/^GITHUB_EVENT_PATH: field "pull_request\.base\.ref" is invalid/);
  });

  it('either parses or throws a one-line error for any payload carrying pull_request', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (pr, repository) => {
        try {
          parsePullRequestEvent({ pull_request: pr, repository });
        } catch (error) {
          expect((error as Error).message).toMatch(/^GITHUB_EVENT_PATH: field "[^"\n]+" is invalid: [^\n]*$/);
        }
      }),
    );
  });
});
