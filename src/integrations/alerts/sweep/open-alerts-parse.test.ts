import { describe, expect, test } from 'vitest';
import { alertListQuery, nextPageUrl, parseAlertListPage } from './open-alerts-parse.js';

const item = { number: 3, state: 'open', secret_type: 'github_pat', created_at: '2026-01-01T00:00:00Z' };

describe('open alert listing', () => {
  test('parses a page and takes the repo from the item or the listing', () => {
    expect(parseAlertListPage([item], 'alerts', 'o/r')).toEqual([
      { repo: 'o/r', number: 3, secretType: 'github_pat', state: 'open', updatedAt: '2026-01-01T00:00:00Z' },
    ]);
    const org = parseAlertListPage([{ ...item, repository: { full_name: 'o/x' }, updated_at: 'u' }], 'alerts');
    expect(org[0]).toMatchObject({ repo: 'o/x', updatedAt: 'u' });
  });

  test('a bad response is a one-line error naming the field', () => {
    expect(() => parseAlertListPage({}, 'alerts of o/r')).toThrow(
      /^GitHub API alerts of o\/r: unexpected response \(root/,
    );
    expect(() => parseAlertListPage([{ ...item, number: 'x' }], 'alerts')).toThrow(/\(0\.number:/);
    expect(() => parseAlertListPage([item], 'alerts')).toThrow(/0\.repository\.full_name/);
  });

  test('query and Link header', () => {
    expect(alertListQuery({ secretType: 'a', validity: 'active' })).toBe(
      'per_page=100&state=open&secret_type=a&validity=active',
    );
    expect(nextPageUrl('<http://h/x?page=3>; rel="last", <http://h/x?page=2>; rel="next"')).toBe('http://h/x?page=2');
    expect(nextPageUrl('<http://h/x?page=1>; rel="prev"')).toBeUndefined();
    expect(nextPageUrl(null)).toBeUndefined();
  });
});
