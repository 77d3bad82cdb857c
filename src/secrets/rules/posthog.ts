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
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: () => [fakeToken('phx_', 47)],
  }),
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'posthog-project-secret-key',
    title: 'PostHog project secret key (feature flags, server side)',
    prefix: 'phs_',
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: () => [fakeToken('phs_', 46)],
  }),
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'posthog-oauth-token',
    title: 'PostHog OAuth access or refresh token',
    prefix: 'pha_',
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: () => [fakeToken('pha_', 57)],
  }),
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'posthog-oauth-refresh-token',
    title: 'PostHog OAuth refresh token',
    prefix: 'phr_',
    body: '[A-Za-z0-9]{40,64}',
    severity: 'critical',
    match: () => [fakeToken('phr_', 49)],
  }),
  // Project keys are meant to ship in front-end code (ingestion only): worth a note, never a block.
  prefixedToken({
    validate: mixesDigitsAndCases,
    id: 'posthog-project-api-key',
    title: 'PostHog project API key (public, ingestion only)',
    prefix: 'phc_',
    body: '[A-Za-z0-9]{40,48}',
    severity: 'low',
    match: () => [fakeToken('phc_', 43)],
  }),
]);
