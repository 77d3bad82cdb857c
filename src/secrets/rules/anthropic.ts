import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, URL_SAFE } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'anthropic-api-key',
    title: 'Anthropic API key',
    prefix: 'sk-ant-api03-',
    body: '[A-Za-z0-9_-]{80,100}AA',
    severity: 'critical',
    match: () => [`${fakeToken('sk-ant-api03-', 93, URL_SAFE)}AA`],
  }),
  prefixedToken({
    id: 'anthropic-admin-key',
    title: 'Anthropic admin API key',
    prefix: 'sk-ant-admin01-',
    body: '[A-Za-z0-9_-]{80,100}AA',
    severity: 'critical',
    match: () => [`${fakeToken('sk-ant-admin01-', 93, URL_SAFE)}AA`],
  }),
]);
