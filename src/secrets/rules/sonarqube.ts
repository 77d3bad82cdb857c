import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken } from '../sample-tokens.js';

/**
 * SonarQube user, project-analysis and global-analysis tokens; SonarQube Cloud (SonarCloud) tokens; and the
 * 40-hex tokens of SonarQube before 9.5, which carry no prefix and are found under a Sonar-named key.
 */
export default defineRules([
  ...(
    [
      ['squ_', 'sonarqube-user-token', 'SonarQube user token'],
      ['sqp_', 'sonarqube-project-token', 'SonarQube project analysis token'],
      ['sqa_', 'sonarqube-global-token', 'SonarQube global analysis token'],
    ] as const
  ).map(([prefix, id, title]) =>
    prefixedToken({ id, title, prefix, body: '[a-f0-9]{40}', severity: 'high', match: [`${prefix}${fakeHex(40)}`] }),
  ),
  prefixedToken({
    id: 'sonarqube-cloud-token',
    title: 'SonarQube Cloud token',
    prefix: 'sqco_',
    body: '[A-Za-z0-9]{59}',
    match: [fakeToken('sqco_', 59)],
  }),
  namedValue({
    id: 'sonarqube-legacy-token',
    title: 'SonarQube token, pre-9.5 format (40 hex, under a Sonar-named key)',
    provider: 'sonar',
    body: '[a-f0-9]{40}',
    key: 'SONAR_TOKEN',
    match: [fakeHex(40)],
    ignore: ['0'.repeat(40)],
  }),
]);
