import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeToken } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

export default defineRules([
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'posthog-personal-api-key',
    title: 'PostHog personal API key',
    prefix: 'phx_',
    body: '[A-Za-z0-9]{43,47}',
    severity: 'critical',
    match: [fakeToken('phx_', 47)],
  }),
  // Project keys are meant to ship in front-end code (ingestion only): worth a note, never a block.
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'posthog-project-api-key',
    title: 'PostHog project API key (public, ingestion only)',
    prefix: 'phc_',
    body: '[A-Za-z0-9]{43}',
    severity: 'low',
    match: [fakeToken('phc_', 43)],
  }),
]);
