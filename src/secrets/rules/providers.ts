/**
 * Who issues each provider file's credentials and where their format is documented. Every built-in rule inherits
 * its file's entry (a rule may set its own `provider`/`reference`); `format: true` marks files whose rules find a
 * kind of credential rather than one vendor's tokens, which the provider count leaves out.
 */
export interface ProviderInfo {
  readonly name: string;
  readonly reference: string;
  readonly format?: true;
}

/** GitHub's list of the token formats its secret scanning knows, with their providers. */
export const GITHUB_PATTERNS =
  'https://docs.github.com/en/code-security/secret-scanning/introduction/supported-secret-scanning-patterns';
const CWE_798 = 'https://cwe.mitre.org/data/definitions/798.html';

const vendor = (name: string, reference = GITHUB_PATTERNS): ProviderInfo => ({ name, reference });
const format = (name: string, reference: string): ProviderInfo => ({ name, reference, format: true });

export const PROVIDER_INFO: Readonly<Record<string, ProviderInfo>> = {
  github: vendor(
    'GitHub',
    'https://github.blog/engineering/platform-security/behind-githubs-new-authentication-token-formats/',
  ),
  gitlab: vendor('GitLab', 'https://docs.gitlab.com/security/tokens/'),
  npm: vendor('npm', 'https://docs.npmjs.com/about-access-tokens'),
  aws: vendor('AWS', 'https://docs.aws.amazon.com/IAM/latest/UserGuide/security-creds.html'),
  google: vendor('Google', 'https://cloud.google.com/docs/authentication/api-keys'),
  azure: vendor('Microsoft Azure'),
  slack: vendor('Slack', 'https://api.slack.com/authentication/token-types'),
  stripe: vendor('Stripe', 'https://docs.stripe.com/keys'),
  openai: vendor('OpenAI', 'https://platform.openai.com/docs/api-reference/authentication'),
  anthropic: vendor('Anthropic', 'https://docs.anthropic.com/en/api/overview'),
  huggingface: vendor('Hugging Face', 'https://huggingface.co/docs/hub/security-tokens'),
  pypi: vendor('PyPI', 'https://pypi.org/help/#apitoken'),
  twilio: vendor('Twilio', 'https://www.twilio.com/docs/iam/api/authtoken'),
  sendgrid: vendor('SendGrid'),
  mailgun: vendor('Mailgun', 'https://documentation.mailgun.com/docs/mailgun/api-reference/authentication'),
  shopify: vendor('Shopify'),
  discord: vendor('Discord'),
  bitbucket: vendor('Bitbucket'),
  clojars: vendor('Clojars'),
  dynatrace: vendor(
    'Dynatrace',
    'https://docs.dynatrace.com/docs/manage/identity-access-management/access-tokens-and-oauth-clients/access-tokens',
  ),
  instagram: vendor('Instagram'),
  nuget: vendor('NuGet'),
  llama: vendor('LlamaIndex'),
  sonarqube: vendor('SonarQube', 'https://docs.sonarsource.com/sonarqube-server/latest/user-guide/managing-tokens/'),
  tavily: vendor('Tavily'),
  'defined-networking': vendor('Defined Networking'),
  telegram: vendor('Telegram', 'https://core.telegram.org/bots/api#authorizing-your-bot'),
  digitalocean: vendor('DigitalOcean'),
  heroku: vendor('Heroku', 'https://devcenter.heroku.com/articles/platform-api-quickstart'),
  datadog: vendor('Datadog'),
  sentry: vendor('Sentry'),
  hashicorp: vendor('HashiCorp', 'https://developer.hashicorp.com/vault/docs/concepts/tokens'),
  linear: vendor('Linear'),
  notion: vendor('Notion'),
  atlassian: vendor(
    'Atlassian',
    'https://support.atlassian.com/atlassian-account/docs/manage-api-tokens-for-your-atlassian-account/',
  ),
  postman: vendor('Postman', 'https://learning.postman.com/docs/reference/postman-api/authentication'),
  grafana: vendor('Grafana'),
  newrelic: vendor('New Relic', 'https://docs.newrelic.com/docs/apis/intro-apis/new-relic-api-keys/'),
  mailchimp: vendor('Mailchimp'),
  square: vendor('Square', 'https://developer.squareup.com/docs/build-basics/access-tokens'),
  facebook: vendor('Facebook'),
  age: format('age encryption key', 'https://github.com/C2SP/C2SP/blob/main/age.md'),
  planetscale: vendor('PlanetScale'),
  supabase: vendor('Supabase'),
  cloudflare: vendor('Cloudflare'),
  databricks: vendor('Databricks', 'https://docs.databricks.com/aws/en/dev-tools/auth/pat'),
  pulumi: vendor('Pulumi'),
  rubygems: vendor('RubyGems'),
  flyio: vendor('Fly.io'),
  onepassword: vendor('1Password'),
  contentful: vendor('Contentful'),
  figma: vendor('Figma'),
  airtable: vendor('Airtable'),
  mapbox: vendor('Mapbox'),
  brevo: vendor('Brevo'),
  alibaba: vendor('Alibaba Cloud'),
  doppler: vendor('Doppler', 'https://docs.doppler.com/docs/token-formats'),
  dropbox: vendor('Dropbox'),
  groq: vendor('Groq'),
  xai: vendor('xAI'),
  perplexity: vendor('Perplexity'),
  replicate: vendor('Replicate'),
  together: vendor('Together AI'),
  fireworks: vendor('Fireworks AI'),
  deepseek: vendor('DeepSeek'),
  mistral: vendor('Mistral AI'),
  cohere: vendor('Cohere'),
  posthog: vendor('PostHog'),
  jfrog: vendor('JFrog'),
  vercel: vendor('Vercel'),
  netlify: vendor('Netlify'),
  paypal: vendor('PayPal'),
  adyen: vendor('Adyen'),
  render: vendor('Render'),
  railway: vendor('Railway'),
  okta: vendor('Okta', 'https://developer.okta.com/docs/guides/create-an-api-token/main/'),
  snyk: vendor('Snyk'),
  postmark: vendor('Postmark'),
  mailjet: vendor('Mailjet'),
  akamai: vendor('Akamai'),
  salesforce: vendor('Salesforce'),
  twitter: vendor('X (Twitter)'),
  wundergraph: vendor('WunderGraph'),
  asana: vendor('Asana', 'https://developers.asana.com/docs/personal-access-token'),
  ntlm: format('NTLM authentication', 'https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-nlmp/'),
  jwt: format('JSON Web Token', 'https://www.rfc-editor.org/rfc/rfc7519'),
  'private-key': format('Private key', 'https://www.rfc-editor.org/rfc/rfc7468'),
  docker: vendor('Docker'),
  database: format('Database credentials', CWE_798),
  curl: format('curl command line', 'https://curl.se/docs/manpage.html#-u'),
  powershell: format('PowerShell', CWE_798),
  shell: format('Shell command line', CWE_798),
  broker: format('Message broker URL', CWE_798),
  'basic-auth': format('HTTP Basic authentication', 'https://www.rfc-editor.org/rfc/rfc7617'),
  'dotnet-credential': format(
    '.NET credential constructor',
    'https://learn.microsoft.com/en-us/dotnet/api/system.net.networkcredential.-ctor',
  ),
  // Many vendors' keys, each in its own format (the provider-named table, learnt from TruffleHog's detectors).
  'providers-prose': format(
    'Provider-named key in words',
    'https://github.com/trufflesecurity/trufflehog/tree/main/pkg/detectors',
  ),
  generic: format('Password or secret assignment', CWE_798),
  'config-array': format('Secret in a config array or map', CWE_798),
  framework: format('Web framework secret key', 'https://cwe.mitre.org/data/definitions/321.html'),
};
