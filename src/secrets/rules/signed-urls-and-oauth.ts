import type { SecretRule } from '../rule.js';
import { TOKEN_START } from '../rule-builders.js';
import { base64UrlOf, fakeHex, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';
import type { ProviderInfo } from './providers.js';

/**
 * Credentials carried inside URLs (a workflow trigger's signature, a Cloudinary URL) and OAuth tokens of platforms
 * whose other formats are known. Formats are the providers' documentation; regexes and samples are ours.
 */

const vendor = (name: string, reference: string): ProviderInfo => ({ name, reference });

export const SIGNED_URL_INFO: Readonly<Record<string, ProviderInfo>> = {
  'azure-workflow': vendor(
    'Microsoft Power Automate / Azure Logic Apps',
    'https://learn.microsoft.com/azure/logic-apps/logic-apps-securing-a-logic-app#generate-shared-access-signatures-sas',
  ),
  'cloudinary-url': vendor('Cloudinary', 'https://cloudinary.com/documentation/how_to_integrate_cloudinary'),
  'airtable-oauth': vendor('Airtable', 'https://airtable.com/developers/web/api/oauth-reference'),
};

const workflowUrl = (host: string, seed: string) =>
  `https://${host}/workflows/${fakeHex(32, `${seed}-id`)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${fakeToken('', 43, URL_SAFE, `${seed}-sig`)}`;

const airtableToken = (prefix: string, seed: string) =>
  `${prefix}${fakeToken('', 14, undefined, `${seed}-id`)}.v1.${base64UrlOf(JSON.stringify({ userId: fakeToken('usr', 14, undefined, `${seed}-user`), expiresAt: '2026-03-01T10:00:00.000Z' }))}.${fakeHex(64, `${seed}-mac`)}`;

export const SIGNED_URL_RULES: Readonly<Record<string, readonly SecretRule[]>> = {
  // A request trigger's URL is its credential: whoever holds `sig` (an HMAC-SHA256, 43 base64url characters) can
  // run the flow. Teams' Workflows webhooks, which replaced Office 365 connectors, are such URLs.
  'azure-workflow': [
    {
      id: 'azure-workflow-trigger-url',
      title: 'Power Automate / Logic Apps trigger URL signature (…/paths/invoke?…&sig=…)',
      severity: 'high',
      keywords: ['/paths/invoke'],
      pattern:
        /https:\/\/[A-Za-z0-9.-]{1,120}\.(?:logic\.azure\.com|powerplatform\.com)(?::443)?\/[^\s"'<>?]{1,300}\/paths\/invoke\?(?:[^\s"'<>#]{0,300}?&)?sig=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/,
      entropy: 4,
      samples: lazySamples(() => ({
        key: 'TEAMS_WEBHOOK_URL',
        match: [
          workflowUrl('prod-27.westeurope.logic.azure.com:443', 'logic'),
          workflowUrl(
            'default1f2e3d4c.0b.environment.api.powerplatform.com:443/powerautomate/automations/direct',
            'pa',
          ),
        ],
        ignore: [
          'https://prod-27.westeurope.logic.azure.com:443/workflows/<id>/triggers/manual/paths/invoke?api-version=2016-06-01&sig=<signature>',
        ],
      })),
    },
  ],
  // `cloudinary://<API key>:<API secret>@<cloud name>`: the secret is 27 characters.
  'cloudinary-url': [
    {
      id: 'cloudinary-url-api-secret',
      title: 'Cloudinary URL with API secret (cloudinary://key:secret@cloud)',
      severity: 'critical',
      keywords: ['cloudinary://'],
      pattern: /cloudinary:\/\/[0-9]{12,16}:([A-Za-z0-9_-]{27})@[A-Za-z0-9_-]{1,64}(?![A-Za-z0-9_-])/,
      entropy: 3.5,
      samples: lazySamples(() => ({
        key: 'CLOUDINARY_URL',
        match: [
          `cloudinary://${fakeToken('', 15, '0123456789', 'cld-key')}:${fakeToken('', 27, URL_SAFE, 'cld')}@acme-media`,
        ],
        ignore: [
          'cloudinary://<api_key>:<api_secret>@<cloud_name>',
          'cloudinary://123456789012345:abcdefghijklmnopqrstuvwxyz0@demo',
        ],
      })),
    },
  ],
  // OAuth access (`oaa…`) and refresh (`oar…`) tokens: an id, `.v1.`, a base64url JSON payload and a 64-hex MAC.
  'airtable-oauth': [
    {
      id: 'airtable-oauth-token',
      title: 'Airtable OAuth access or refresh token (oaa….v1.…)',
      severity: 'critical',
      keywords: ['.v1.eyJ'],
      pattern: new RegExp(
        `${TOKEN_START}(oa[ar][A-Za-z0-9]{14}\\.v1\\.eyJ[A-Za-z0-9_-]{16,1000}\\.[0-9a-f]{64})(?![A-Za-z0-9_-])`,
      ),
      entropy: 4,
      samples: lazySamples(() => ({
        match: [airtableToken('oaa', 'airtable-a'), airtableToken('oar', 'airtable-r')],
        ignore: [`oaa${'x'.repeat(14)}.v1.eyJ${'x'.repeat(40)}.${'0'.repeat(64)}`],
      })),
    },
  ],
};
