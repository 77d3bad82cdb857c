import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { fakeHex } from '../sample-tokens.js';

/** SonarQube user, project-analysis and global-analysis tokens. */
export default defineRules(
  (
    [
      ['squ_', 'sonarqube-user-token', 'SonarQube user token'],
      ['sqp_', 'sonarqube-project-token', 'SonarQube project analysis token'],
      ['sqa_', 'sonarqube-global-token', 'SonarQube global analysis token'],
    ] as const
  ).map(([prefix, id, title]) =>
    prefixedToken({ id, title, prefix, body: '[a-f0-9]{40}', severity: 'high', match: [`${prefix}${fakeHex(40)}`] }),
  ),
);
