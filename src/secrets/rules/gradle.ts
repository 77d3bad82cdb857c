import { checkedGate } from '../gate-checks.js';
import { judgeGenericValue } from '../generic-value.js';
import { hitContext } from '../hit-context.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';
import type { ProviderInfo } from './providers.js';

/** Whether what follows `credentials` at `after` may start a block's header: a blank, `(` or `{`. */
function opensBlock(text: string, after: number): boolean {
  const code = after < text.length ? text.charCodeAt(after) : -1;
  return code === 32 || code === 9 || code === 40 || code === 123;
}

/**
 * Repository credentials in a Gradle build script (Groovy DSL): `credentials { username '…'; password '…' }`, where
 * name and value are separated by a blank, not `=`, so the assignment rules cannot see them. The Kotlin DSL writes
 * `password = "…"`, which they do. Judged as a password in a config file: placeholders, `$property` and
 * `System.getenv(…)` references are not reported.
 */
export const GRADLE_INFO: ProviderInfo = {
  name: 'Gradle repository credentials',
  reference: 'https://docs.gradle.org/current/dsl/org.gradle.api.artifacts.repositories.PasswordCredentials.html',
  format: true,
};

const buildScript = (v: string) =>
  `repositories {\n  maven {\n    url 'https://repo.acme.internal/releases'\n    credentials {\n      username 'deployer'\n      password '${v}'\n    }\n  }\n}\n`;

export default defineRules([
  {
    id: 'gradle-credentials-password',
    title: "Password in a Gradle credentials block (credentials { password '…' })",
    severity: 'high',
    keywords: ['credentials'],
    // Right after the keyword: a blank, `(` or `{` (what the gate's regex reads first); `credentials:` and
    // `credentials.` in code are dropped by the keyword pass.
    gate: checkedGate(/[ \t]*(?:\([^)\r\n]{0,60}\))?[ \t]*\{/, opensBlock, hitContext([], [' \t({'])),
    window: 'block',
    maxLength: 400,
    generic: true,
    pattern:
      /credentials[ \t]*(?:\([^)\r\n]{0,60}\))?[ \t]*\{[^{}]{0,300}?(?<![A-Za-z0-9_.])password[ \t]+(?:"(?<secretQuoted>[^"$\r\n]{1,200})"|'(?<secretSingle>[^'\r\n]{1,200})')/,
    validate: (secret, context) => judgeGenericValue('password', secret, { ...context, syntax: 'config' }),
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('gradle'), fakeToken('', 20, URL_SAFE, 'gradle-token')],
      ignore: ['password', 'SOME_PASSWORD', '$mavenPassword', 'changeme'],
      contexts: [
        { name: 'build.gradle', path: 'build.gradle', render: buildScript },
        {
          name: 'publishing block, double quotes',
          path: 'publish.gradle',
          render: (v) =>
            `publishing {\n  repositories {\n    maven {\n      credentials(PasswordCredentials) {\n        username "ci"\n        password "${v.replace(/\$/g, '')}"\n      }\n    }\n  }\n}\n`,
        },
      ],
    })),
  },
]);
