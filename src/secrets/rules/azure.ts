import { checkedGate, isBase64Url } from '../gate-checks.js';
import { byteAt, withBytesTest } from '../hit-bytes.js';
import { hitContext } from '../hit-context.js';
import { defineRules } from '../rule.js';
import { BASE64, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

/**
 * Whether `key` (any case) starts within 30 name characters after the hit ending at `after`, as the named key's gate
 * needs: a regex test at each `account` and `storage` of ordinary code cost more than the rule's windows.
 */
export function keyWithinName(text: string, after: number): boolean {
  for (let at = after; at <= after + 30; at++) {
    const code = text.charCodeAt(at);
    if ((code | 32) === 107 && (text.charCodeAt(at + 1) | 32) === 101 && (text.charCodeAt(at + 2) | 32) === 121)
      return true;
    if (!(isBase64Url(code) || code === 46)) return false; // the name's `[A-Za-z0-9_.-]`
  }
  return false;
}

/**
 * `keyWithinName` on bytes (`HitBytesTest`): the byte scan drops the `account` and `storage` hits of ordinary code
 * (6,067 on the rule-cost row's 64 MB, none of which opened a window) before any tile or call.
 */
export function keyWithinNameBytes(bytes: Uint8Array, after: number): boolean {
  for (let at = after; at <= after + 30; at++) {
    const code = byteAt(bytes, at);
    if ((code | 32) === 107 && (byteAt(bytes, at + 1) | 32) === 101 && (byteAt(bytes, at + 2) | 32) === 121)
      return true;
    if (!(isBase64Url(code) || code === 46)) return false;
  }
  return false;
}

const accountKey = () => `${fakeToken('', 86, BASE64)}==`;

export default defineRules([
  {
    id: 'azure-storage-account-key',
    title: 'Azure storage account key (AccountKey=…)',
    severity: 'critical',
    keywords: ['accountkey'],
    pattern: /AccountKey[ \t]{0,2}=[ \t]{0,2}([A-Za-z0-9+/]{86}==)/i,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [
        `DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${accountKey()};EndpointSuffix=core.windows.net`,
      ],
      ignore: [
        // Azurite's published development key (public by design).
        'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;',
        `AccountKey=\${STORAGE_KEY}`,
      ],
    })),
  },
  // The same 64-byte key outside a connection string: a storage, Cosmos DB or account key held in a variable or a
  // settings entry (`storageAccountKey = "…"`, `{ "AccountKey", "…" }`, `COSMOS_KEY: …`). 86 base64 + `==` is the key.
  {
    id: 'azure-storage-account-key-named',
    title: 'Azure storage or Cosmos DB account key (under a storage-, account- or Cosmos-named key)',
    severity: 'critical',
    keywords: ['storage', 'account', 'cosmos', 'azure'],
    // The pattern's rest after the word: `account` and `storage` are in much ordinary code, and only the rare hit
    // followed by `…key`, a separator and 86 base64 characters is worth a window. Its context: the three characters
    // after the word are name characters or `key` itself, as `keyWithinName` needs (`account)`, `account ` and
    // `accounts)` are dropped by the keyword pass: 15,900 of 19,504 `account` hits on 64 MB of npm code).
    gate: withBytesTest(
      checkedGate(
        /[A-Za-z0-9_.-]{0,30}?key[A-Za-z0-9_.-]{0,10}(?:[\]"'`)>]{1,3}[ \t]{0,4}(?:=|:=|:|=>|,|\{)?|[ \t]{0,4}(?:=|:=|:|=>|,|\{)|[ \t]{1,4})[ \t]{0,4}["'`(]{0,2}[A-Za-z0-9+/]{86}==/i,
        keyWithinName,
        hitContext([], Array(3).fill('A-Za-z0-9_.-')),
      ),
      keyWithinNameBytes,
    ),
    pattern:
      /(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,40}?(?:storage|account|cosmos|azure)[A-Za-z0-9_.-]{0,30}?key[A-Za-z0-9_.-]{0,10})(?:[\]"'`)>]{1,3}[ \t]{0,4}(?:=|:=|:|=>|,|\{)?|[ \t]{0,4}(?:=|:=|:|=>|,|\{)|[ \t]{1,4})[ \t]{0,4}["'`(]{0,2}(?<secret>[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/i,
    entropy: 4,
    samples: lazySamples(() => ({
      key: 'AZURE_STORAGE_KEY',
      match: [accountKey()],
      // Any separator people write between a name and a value: XML elements, map lookups, command-line flags.
      contexts: [
        { name: 'env', path: '.env', render: (v) => `AZURE_STORAGE_KEY=${v}\n` },
        { name: 'JSON', path: 'appsettings.json', render: (v) => `{ "StorageAccountKey": "${v}" }\n` },
        {
          name: 'XML',
          path: 'conf/azure.xml',
          render: (v) => `<azure>\n  <account_key>${v}</account_key>\n</azure>\n`,
        },
        { name: 'map lookup', path: 'test/parse.js', render: (v) => `assert.equal(parsed['AccountKey'], '${v}');\n` },
        {
          name: 'command-line flag',
          path: 'scripts/cleanup.cmd',
          render: (v) => `Cleanup.exe -storagekey ${v} -container backups\n`,
        },
      ],
      ignore: [
        'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==',
        `\${STORAGE_ACCOUNT_KEY}`,
      ],
    })),
  },
  {
    id: 'azure-shared-access-key',
    title: 'Azure Service Bus / Event Hubs shared access key (SharedAccessKey=…)',
    severity: 'critical',
    keywords: ['sharedaccesskey='],
    pattern: /SharedAccessKey[ \t]{0,2}=[ \t]{0,2}([A-Za-z0-9+/]{42,44}=?)(?![A-Za-z0-9+/=])/i,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [
        `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${fakeToken('', 43, BASE64)}=`,
      ],
      ignore: ['SharedAccessKey=<key>'],
    })),
  },
  {
    id: 'azure-sas-token',
    title: 'Azure shared access signature (sig=…)',
    severity: 'high',
    keywords: ['sig='],
    pattern: /[?&]sv=\d{4}-\d{2}-\d{2}&[^\s"'<>]{0,300}?[?&]?sig=([A-Za-z0-9%+/]{40,120}(?:%3D|=){0,2})/i,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [
        `https://acme.blob.core.windows.net/data?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2027-01-01T00:00:00Z&sig=${fakeToken('', 43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789')}%3D`,
      ],
      ignore: ['?sv=2022-11-02&sig=<signature>'],
    })),
  },
  {
    id: 'azure-ad-client-secret',
    title: 'Microsoft Entra ID client secret (…Q~…)',
    severity: 'critical',
    keywords: ['Q~'],
    pattern: /(?<![A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [`${fakeToken('', 3)}8Q~${fakeToken('', 34, `${URL_SAFE}~.`)}`],
      ignore: ['abc8Q~' + 'x'.repeat(34)],
    })),
  },
  {
    id: 'azure-devops-pat',
    title: 'Azure DevOps personal access token',
    severity: 'critical',
    keywords: ['azure_devops', 'azuredevops', 'ado_pat', 'azure-devops', 'system_accesstoken', 'azdo'],
    pattern:
      /(?:azure[_-]?devops|ado_pat|azdo|system_accesstoken)[A-Za-z0-9_.-]{0,30}["']?[ \t]{0,4}(?:=|:|=>)[ \t]{0,4}["']?([a-z2-7]{52}|[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4})(?![A-Za-z0-9])/i,
    entropy: 3.5,
    samples: lazySamples(() => ({
      key: 'AZURE_DEVOPS_PAT',
      match: [fakeToken('', 52, 'abcdefghijklmnopqrstuvwxyz234567')],
      ignore: [`\${AZURE_DEVOPS_PAT}`],
    })),
  },
]);
