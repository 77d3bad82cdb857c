import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';

/** Bitbucket Cloud app passwords and access tokens, and Bitbucket Data Center HTTP access tokens. */
export default defineRules([
  prefixedToken({
    id: 'bitbucket-app-password',
    title: 'Bitbucket app password',
    prefix: 'ATBB',
    body: '[A-Za-z0-9_=.-]{28,36}',
    severity: 'critical',
    match: () => [fakeToken('ATBB', 32)],
  }),
  prefixedToken({
    id: 'bitbucket-access-token',
    title: 'Bitbucket repository, project or workspace access token',
    prefix: 'ATCTT3xFfGN0',
    body: '[A-Za-z0-9_=-]{100,300}',
    severity: 'critical',
    match: () => [fakeToken('ATCTT3xFfGN0', 180, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')],
  }),
  prefixedToken({
    id: 'bitbucket-data-center-token',
    title: 'Bitbucket Data Center HTTP access token',
    prefix: 'BBDC-',
    body: '[A-Za-z0-9+/@_-]{40,48}',
    severity: 'critical',
    match: () => [fakeToken('BBDC-', 44)],
  }),
]);
