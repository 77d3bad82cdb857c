import { defineRules } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeHex, fakeToken, lazySamples } from '../sample-tokens.js';

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
    prefixedToken({
      id,
      title,
      prefix,
      body: '[a-f0-9]{40}',
      severity: 'high',
      match: () => [`${prefix}${fakeHex(40)}`],
    }),
  ),
  prefixedToken({
    id: 'sonarqube-cloud-token',
    title: 'SonarQube Cloud token',
    prefix: 'sqco_',
    body: '[A-Za-z0-9]{59}',
    match: () => [fakeToken('sqco_', 59)],
  }),
  namedValue({
    id: 'sonarqube-legacy-token',
    title: 'SonarQube token, pre-9.5 format (40 hex, under a Sonar-named key)',
    provider: 'sonar',
    body: '[a-f0-9]{40}',
    key: 'SONAR_TOKEN',
    match: () => [fakeHex(40)],
    ignore: () => ['0'.repeat(40)],
  }),
  // Before tokens, SonarScanner took the token as `sonar.login` (`-Dsonar.login=…`, `sonar.login=` in
  // sonar-project.properties, `sonarLogin` in build scripts); a 40-hex value there is a pre-9.5 token.
  {
    id: 'sonarqube-legacy-login-token',
    title: 'SonarQube token, pre-9.5 format (40 hex, as sonar.login)',
    severity: 'high',
    keywords: ['sonar.login', 'sonarlogin', 'sonar_login'],
    pattern:
      /(?<![A-Za-z0-9_])(?:-D)?sonar[._]?login["']?[ \t]{0,4}(?:=|:|=>|,)[ \t]{0,4}["']?([a-f0-9]{40})(?![A-Za-z0-9_])/i,
    entropy: 3,
    samples: lazySamples(() => ({
      match: [`-Dsonar.login=${fakeHex(40, 'sonar-login-1')}`, `sonarLogin = "${fakeHex(40, 'sonar-login-2')}"`],
      ignore: ['-Dsonar.login=$SONAR_TOKEN', `sonar.login=${'0'.repeat(40)}`],
      contexts: [
        {
          name: 'properties',
          path: 'sonar-project.properties',
          render: (v) => `sonar.projectKey=acme\n${v.replace(/^-D/, '')}\n`,
        },
        {
          name: 'Maven command',
          path: 'ci/build.sh',
          render: (v) => `mvn -B verify sonar:sonar ${v.replace(/ = /, '=').replace(/"/g, '')}\n`,
        },
      ],
    })),
  },
]);
