import { describe, expect, test } from 'vitest';
import { fakeHex, fakeToken, UPPER_ALPHANUMERIC, URL_SAFE } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';

/**
 * Each provider's current and older token generations, in the files they turn up in, beside real-looking text that
 * names the same provider or prefix and holds no secret (docs, issue keys, config names): the rules' own samples
 * prove the shapes, these prove the rules stay quiet on their neighbours.
 */
const scanner = new SecretScanner(builtinRules);
const ids = (text: string, path = 'config/app.env') => scanner.scanText(text, { path }).map((item) => item.rule.id);

const DIGITS = '0123456789';
const uuid = (seed: string) =>
  `${fakeHex(8, `${seed}1`)}-${fakeHex(4, `${seed}2`)}-4${fakeHex(3, `${seed}3`)}-a${fakeHex(3, `${seed}4`)}-${fakeHex(12, `${seed}5`)}`;

describe('provider token generations are found', () => {
  test.each([
    [
      'New Relic user key',
      `NEW_RELIC_API_KEY=${fakeToken('NRAK-', 27, UPPER_ALPHANUMERIC, 'gen-nrak')}\n`,
      'newrelic-user-api-key',
    ],
    ['New Relic license key', `license_key: ${fakeHex(36, 'gen-nral')}NRAL\n`, 'newrelic-license-key'],
    ['New Relic insert key', `insightsKey: ${fakeToken('NRII-', 32, URL_SAFE, 'gen-nrii')}\n`, 'newrelic-insert-key'],
    [
      'New Relic query key',
      `X-Query-Key: ${fakeToken('NRIQ-', 32, URL_SAFE, 'gen-nriq')}\n`,
      'newrelic-insights-query-key',
    ],
    [
      'Slack pre-2018 bot token',
      `HUBOT_SLACK_TOKEN=xoxb-${fakeToken('', 11, DIGITS, 'gen-xoxb')}-${fakeToken('', 24, undefined, 'gen-xoxb')}\n`,
      'slack-legacy-bot-token',
    ],
    ['Square access token', `SQUARE_TOKEN=${fakeToken('sq0atp-', 22, URL_SAFE, 'gen-sq')}\n`, 'square-access-token'],
    ['Square current token', `SQUARE_TOKEN=${fakeToken('EAAA', 60, URL_SAFE, 'gen-eaaa')}\n`, 'square-access-token-v2'],
    [
      'Square OAuth secret',
      `client_secret: ${fakeToken('sq0csp-', 43, URL_SAFE, 'gen-sqcsp')}\n`,
      'square-oauth-secret',
    ],
    [
      'Doppler service token',
      `DOPPLER_TOKEN=dp.st.prd.${fakeToken('', 43, undefined, 'gen-dp')}\n`,
      'doppler-service-token',
    ],
    [
      'Postman API key',
      `POSTMAN_API_KEY=PMAK-${fakeHex(24, 'gen-pm1')}-${fakeHex(34, 'gen-pm2')}\n`,
      'postman-api-key',
    ],
    [
      'Dynatrace token',
      `DT_API_TOKEN=${fakeToken('dt0c01.', 24, UPPER_ALPHANUMERIC, 'gen-dt1')}.${fakeToken('', 64, UPPER_ALPHANUMERIC, 'gen-dt2')}\n`,
      'dynatrace-api-token',
    ],
    [
      'Asana token',
      `ASANA_ACCESS_TOKEN=2/${fakeToken('', 16, DIGITS, 'gen-as1')}/${fakeToken('', 16, DIGITS, 'gen-as2')}:${fakeHex(32, 'gen-as')}\n`,
      'asana-personal-access-token',
    ],
    [
      'Atlassian token (2023)',
      `JIRA_TOKEN=${fakeToken('ATATT3x', 178, URL_SAFE, 'gen-at')}=${fakeHex(8, 'gen-at').toUpperCase()}\n`,
      'atlassian-api-token',
    ],
    [
      'Jira token (pre-2023)',
      `jira_api_token = "${fakeToken('', 24, undefined, 'gen-jira')}"\n`,
      'atlassian-legacy-api-token',
    ],
    [
      'Confluence token (pre-2023)',
      `CONFLUENCE_TOKEN=${fakeToken('', 24, undefined, 'gen-conf')}\n`,
      'atlassian-legacy-api-token',
    ],
    ['Okta token', `OKTA_CLIENT_TOKEN=${fakeToken('00', 40, URL_SAFE, 'gen-okta')}\n`, 'okta-api-token'],
    ['Okta SSWS header', `Authorization: SSWS ${fakeToken('00', 40, URL_SAFE, 'gen-ssws')}\n`, 'okta-ssws-header'],
    ['Databricks token', `DATABRICKS_TOKEN=dapi${fakeHex(32, 'gen-dapi')}\n`, 'databricks-api-token'],
    ['Databricks token (Azure, -N)', `token = dapi${fakeHex(32, 'gen-dapi2')}-3\n`, 'databricks-api-token'],
    ['Heroku token', `HEROKU_API_KEY=${fakeToken('HRKU-AA', 58, URL_SAFE, 'gen-hrku')}\n`, 'heroku-api-key'],
    ['Heroku UUID key', `HEROKU_API_KEY=${uuid('gen-heroku')}\n`, 'heroku-legacy-api-key'],
    ['Mailgun key', `MAILGUN_KEY=key-${fakeHex(32, 'gen-mg')}\n`, 'mailgun-api-key'],
    [
      'Twilio token beside its SID',
      `account_sid = "AC${fakeHex(32, 'gen-sid')}"\nauth_token = "${fakeHex(32, 'gen-tw')}"\n`,
      'twilio-account-auth-token',
      'send_sms.py',
    ],
  ])('%s', (_name, text, rule, path = 'config/app.env') => {
    const withImport = rule === 'twilio-account-auth-token' ? `from twilio.rest import Client\n${text}` : text;
    expect(ids(withImport, path)).toEqual([rule]);
  });
});

describe('real-looking text that names the provider or prefix holds no secret', () => {
  test.each([
    ['New Relic docs', 'User keys start with NRAK- and are 32 characters long.\n', 'docs/newrelic.md'],
    ['New Relic placeholder', 'NEW_RELIC_LICENSE_KEY=<your-license-key>NRAL\n', '.env'],
    ['Slack docs placeholder', 'SLACK_BOT_TOKEN=xoxb-your-bot-token\n', '.env'],
    ['Slack token type in prose', 'Bot tokens (xoxb-) and user tokens (xoxp-) differ in scope.\n', 'README.md'],
    [
      'Square application id (public)',
      `SQUARE_APPLICATION_ID=${fakeToken('sq0idp-', 22, URL_SAFE, 'neg-sqidp')}\n`,
      '.env',
    ],
    ['Doppler config name', 'doppler run --config dp.st.dev -- npm start\n', 'Makefile'],
    ['Postman placeholder', 'POSTMAN_API_KEY=PMAK-xxxxxxxxxxxxxxxxxxxxxxxx\n', '.env'],
    ['Dynatrace docs elision', 'Api-Token dt0c01.ABC123... (see the token list)\n', 'docs/monitoring.md'],
    ['Asana task URL', 'ASANA_TASK_URL=https://app.asana.com/0/1203456789012345/1203456789012346\n', '.env'],
    ['Jira issue key', 'JIRA_ISSUE_KEY=PLATFORM-4821\n', '.env'],
    ['Jira project key name', 'jira_project_key: OPSTEAMPLATFORMMIGRATION\n', 'config/jira.yml'],
    ['Confluence space key', 'confluence_space_key = "ENGHANDBOOK"\n', 'config/wiki.toml'],
    ['Okta org URL', 'OKTA_ORG_URL=https://dev-12345678.okta.com\n', '.env'],
    ['Okta scheme in prose', 'Okta expects the SSWS scheme, not Bearer, for API tokens.\n', 'docs/okta.md'],
    ['Databricks host', 'DATABRICKS_HOST=https://adb-1234567890123456.7.azuredatabricks.net\n', '.env'],
    ['dapi in an identifier', `const dapiVersion = "2.1";\n`, 'src/client.ts'],
    ['Heroku app name', 'HEROKU_APP_NAME=acme-orders-staging\n', '.env'],
    ['Mailgun domain', 'MAILGUN_DOMAIN=mg.acme.example\n', '.env'],
    ['key- in a cache key', `const cacheKey = "key-" + userId;\n`, 'src/cache.ts'],
    ['Twilio SID alone', `TWILIO_ACCOUNT_SID=AC${fakeHex(32, 'neg-sid')}\n`, '.env'],
    ['Twilio messaging service SID', `twilio_messaging_service: MG${fakeHex(32, 'neg-mg')}\n`, 'config/sms.yml'],
  ])('%s', (_name, text, path) => {
    expect(ids(text, path)).toEqual([]);
  });
});
