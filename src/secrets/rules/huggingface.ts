import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken, LETTERS } from '../sample-tokens.js';

export default defineRules([
  prefixedToken({
    id: 'huggingface-access-token',
    title: 'Hugging Face access token',
    prefix: 'hf_',
    body: '[A-Za-z]{34}',
    match: () => [fakeToken('hf_', 34, LETTERS)],
    ignore: () => ['hf_' + 'abcdefghijklmnopqrstuvwxyzabcdefgh'],
  }),
  prefixedToken({
    id: 'huggingface-org-token',
    title: 'Hugging Face organization API token',
    prefix: 'api_org_',
    body: '[A-Za-z]{34}',
    match: () => [fakeToken('api_org_', 34, LETTERS)],
  }),
]);
