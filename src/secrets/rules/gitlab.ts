import { defineRules, type SecretRule } from '../rule.js';
import { fakeHex, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

function prefixed(
  prefix: string,
  id: string,
  title: string,
  body: string,
  length: number,
  alphabet = URL_SAFE,
): SecretRule {
  return {
    id,
    title: `${title} (${prefix}…)`,
    severity: 'critical',
    keywords: [prefix],
    pattern: new RegExp(`(?<![A-Za-z0-9_-])(${prefix}${body})(?![A-Za-z0-9_-])`),
    entropy: 3,
    samples: lazySamples(() => ({
      match: [fakeToken(prefix, length, alphabet)],
      ignore: [`${prefix}${'x'.repeat(length)}`, `${prefix}\${CI_TOKEN}`],
    })),
  };
}

export default defineRules([
  prefixed('glpat-', 'gitlab-pat', 'GitLab personal access token', '[A-Za-z0-9_-]{20,64}', 20),
  prefixed(
    'glptt-',
    'gitlab-pipeline-trigger-token',
    'GitLab pipeline trigger token',
    '[0-9a-f]{40}',
    40,
    '0123456789abcdef',
  ),
  prefixed('glrt-', 'gitlab-runner-token', 'GitLab runner authentication token', '[A-Za-z0-9_-]{20,64}', 20),
  prefixed(
    'glrtr-',
    'gitlab-runner-registration-token-glrtr',
    'GitLab runner registration token',
    '[A-Za-z0-9_-]{20,64}',
    20,
  ),
  prefixed('glwt-', 'gitlab-workspace-token', 'GitLab workspace token', '[A-Za-z0-9_-]{20,64}', 20),
  prefixed('gldt-', 'gitlab-deploy-token', 'GitLab deploy token', '[A-Za-z0-9_-]{20,64}', 20),
  prefixed('glft-', 'gitlab-feed-token', 'GitLab feed token', '[A-Za-z0-9_-]{20,64}', 20),
  prefixed('gloas-', 'gitlab-oauth-app-secret', 'GitLab OAuth application secret', '[A-Za-z0-9_-]{64}', 64),
  prefixed('glsoat-', 'gitlab-scim-token', 'GitLab SCIM OAuth access token', '[A-Za-z0-9_-]{20,64}', 20),
  prefixed('glimt-', 'gitlab-incoming-mail-token', 'GitLab incoming mail token', '[A-Za-z0-9_-]{25,64}', 25),
  prefixed('glagent-', 'gitlab-agent-token', 'GitLab agent for Kubernetes token', '[A-Za-z0-9_-]{50,64}', 50),
  prefixed(
    'glffct-',
    'gitlab-feature-flag-client-token',
    'GitLab feature flags client token',
    '[A-Za-z0-9_-]{20,64}',
    20,
  ),
  prefixed(
    'GR1348941',
    'gitlab-runner-registration-token',
    'GitLab runner registration token',
    '[A-Za-z0-9_-]{20}',
    20,
  ),
  {
    id: 'gitlab-session-cookie',
    title: 'GitLab session cookie (_gitlab_session=…)',
    severity: 'high',
    keywords: ['_gitlab_session'],
    pattern: /_gitlab_session["']?[ \t]{0,4}[=:][ \t]{0,4}["']?([0-9a-f]{32})(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      key: '_gitlab_session',
      match: [fakeHex(32)],
      ignore: [`\${GITLAB_SESSION}`, '0'.repeat(32)],
    })),
  },
  {
    id: 'gitlab-ci-build-token',
    title: 'GitLab CI job token (glcbt-…)',
    severity: 'high',
    keywords: ['glcbt-'],
    pattern: /(?<![A-Za-z0-9_-])(glcbt-[0-9a-fA-F]{1,5}_[A-Za-z0-9_-]{20})(?![A-Za-z0-9_-])/,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`glcbt-${fakeHex(2)}_${fakeToken('', 20)}`],
      ignore: [`glcbt-\${CI_JOB_TOKEN}`],
    })),
  },
]);
