import { defineRules } from '../rule.js';
import { fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

// OpenAI keys embed base64("openai") = T3BlbkFJ in the middle: a distinctive anchor for a prefix (`sk-`) that is not.
export default defineRules([
  {
    id: 'openai-api-key',
    title: 'OpenAI API key (sk-…T3BlbkFJ…)',
    severity: 'critical',
    keywords: ['T3BlbkFJ'],
    pattern:
      /(?<![A-Za-z0-9_-])(sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200})(?![A-Za-z0-9_-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [
        `sk-proj-${fakeToken('', 74, URL_SAFE)}T3BlbkFJ${fakeToken('', 74, URL_SAFE)}`,
        `sk-${fakeToken('', 20)}T3BlbkFJ${fakeToken('', 20)}`,
      ],
      ignore: ['sk-proj-xxxxxxxxxxxxxxxxxxxxT3BlbkFJxxxxxxxxxxxxxxxxxxxx'],
    })),
  },
]);
