import type { SecretRule } from '../rule.js';
import { BASE64, fakeHex, fakeToken, LOWER_ALPHANUMERIC, lazySamples } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';
import type { ProviderInfo } from './providers.js';

/**
 * Credentials of self-hosted infrastructure, which no SaaS prefix announces: cluster join tokens, Vault's unseal
 * shares, NAS and IoT platform keys. Each format needs its tool's words next to it (a command, a config key, an API
 * path). Formats are the projects' own documentation; regexes and samples are ours.
 */
interface Provider {
  readonly info: ProviderInfo;
  readonly rules: readonly SecretRule[];
}

const hasDigitAndLetter = (text: string) => /[0-9]/.test(text) && /[A-Za-z]/.test(text);

/** `abcdef.0123456789abcdef` is the documented example of the format, not a token. */
const BOOTSTRAP_EXAMPLE = /^abcdef\.0123456789abcdef$/;
const bootstrapToken = (seed: string) =>
  `${fakeToken('', 6, LOWER_ALPHANUMERIC, `${seed}-id`)}.${fakeToken('', 16, LOWER_ALPHANUMERIC, `${seed}-secret`)}`;

const PROVIDERS: Record<string, Provider> = {
  kubernetes: {
    info: {
      name: 'Kubernetes',
      reference: 'https://kubernetes.io/docs/reference/access-authn-authz/bootstrap-tokens/',
    },
    rules: [
      // `[a-z0-9]{6}.[a-z0-9]{16}`: a public token ID and a secret, which joins a node to the cluster (kubeadm join) and
      // is valid for 24 hours by default, or forever with `--ttl 0`. The shape alone is common enough (`static.…`),
      // so it counts only after a kubeadm or bootstrap word: the join command, kubeadm config, an env var.
      {
        id: 'kubernetes-bootstrap-token',
        title: 'Kubernetes bootstrap token (kubeadm join --token …)',
        severity: 'high',
        keywords: ['kubeadm', 'bootstraptoken', 'bootstrap_token', 'bootstrap-token', 'discovery-token'],
        window: 'block',
        maxLength: 400,
        pattern:
          /(?:kubeadm|bootstrap[_-]?token|discovery-token)(?:[^\r\n]|\r?\n){0,300}?(?<![A-Za-z0-9_./-])([a-z0-9]{6}\.[a-z0-9]{16})(?![A-Za-z0-9_.-])/i,
        validate: (secret) =>
          secret === secret.toLowerCase() && !BOOTSTRAP_EXAMPLE.test(secret) && hasDigitAndLetter(secret.slice(7)),
        samples: lazySamples(() => ({
          match: [bootstrapToken('kubeadm')],
          ignore: ['abcdef.0123456789abcdef', 'static.bootstrapcdnassets', 'kubeadm.configuration'],
          contexts: [
            {
              name: 'kubeadm join',
              path: 'scripts/join-node.sh',
              render: (v) =>
                `kubeadm join 10.0.0.5:6443 --token ${v} \\\n  --discovery-token-ca-cert-hash sha256:${fakeHex(64, 'ca')}\n`,
            },
            {
              name: 'kubeadm config',
              path: 'kubeadm-config.yaml',
              render: (v) =>
                `apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n  - token: "${v}"\n    ttl: "0s"\n`,
            },
            { name: 'env', path: '.env', render: (v) => `KUBEADM_TOKEN=${v}\n` },
            { name: 'terraform', path: 'main.tf', render: (v) => `  bootstrap_token = "${v}"\n` },
          ],
        })),
      },
    ],
  },
  vault: {
    info: { name: 'HashiCorp', reference: 'https://developer.hashicorp.com/vault/docs/commands/operator/init' },
    rules: [
      // `vault operator init` prints the unseal (or, with auto-unseal, recovery) key shares: 33 bytes each, in base64
      // (44 characters) in its text output and in base64 and hex (66 characters) in its JSON. Enough shares open the
      // whole Vault; they end up in notes, CI logs and init scripts.
      {
        id: 'vault-unseal-key',
        provider: 'HashiCorp',
        title: 'HashiCorp Vault unseal or recovery key share',
        severity: 'critical',
        keywords: ['unseal key', 'recovery key', 'unseal_keys', 'recovery_keys', 'operator unseal'],
        window: 'block',
        maxLength: 200,
        pattern:
          /(?:(?:unseal|recovery) key \d{1,2}:[ \t]*|(?:unseal|recovery)_keys_(?:b64|hex)\\?["']?[ \t]*:[ \t]*\[?\s{0,40}\\?["']|operator unseal[ \t]+(?:-[a-z-]+(?:=\S+)?[ \t]+){0,3}["']?)([A-Za-z0-9+/]{43}[A-Za-z0-9+/=]|[0-9a-f]{66})(?![A-Za-z0-9+/=])/i,
        entropy: 3.5,
        validate: (secret) => (secret.length === 66 ? hasDigitAndLetter(secret) : mixesDigitsAndCases(secret)),
        samples: lazySamples(() => ({
          match: [fakeToken('', 44, BASE64, 'unseal'), fakeHex(66, 'unseal-hex')],
          ignore: ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', '<unseal-key-1>'],
          contexts: [
            {
              name: 'init output',
              path: 'docs/vault-init.txt',
              render: (v) => `Unseal Key 1: ${v}\nUnseal Key 2: <redacted>\n\nVault initialized with 5 key shares\n`,
            },
            {
              name: 'init json',
              path: 'vault/init.json',
              render: (v) => `{\n  "unseal_keys_b64": [\n    "${v}"\n  ],\n  "unseal_shares": 1\n}\n`,
            },
            { name: 'unseal command', path: 'scripts/unseal.sh', render: (v) => `vault operator unseal ${v}\n` },
          ],
        })),
      },
    ],
  },
  thingsboard: {
    info: { name: 'ThingsBoard', reference: 'https://thingsboard.io/docs/reference/http-api/' },
    rules: [
      // A device access token (20 random letters and digits by default) is the device's only credential: it sits in
      // the path of the device HTTP API and is the MQTT user name of `v1/devices/me/…` topics.
      {
        id: 'thingsboard-device-token',
        title: 'ThingsBoard device access token (/api/v1/<token>/telemetry)',
        severity: 'high',
        keywords: ['/api/v1/'],
        gate: /[A-Za-z0-9]{20,40}\//,
        pattern:
          /\/api\/v1\/([A-Za-z0-9]{20,40})\/(?:telemetry|attributes|rpc|claim|firmware|software|provision)(?![A-Za-z0-9_-])/,
        entropy: 3.5,
        validate: mixesDigitsAndCases,
        samples: lazySamples(() => ({
          match: [fakeToken('', 20, undefined, 'thingsboard')],
          ignore: ['ACCESS_TOKEN_PLACEHOLDER', 'YOUR_ACCESS_TOKEN_HERE_1'],
          contexts: [
            {
              name: 'curl',
              path: 'scripts/send.sh',
              render: (v) =>
                `curl -v -X POST http://tb.acme.internal:8080/api/v1/${v}/telemetry -H "Content-Type:application/json" -d '{"t":21}'\n`,
            },
            {
              name: 'python',
              path: 'device/send.py',
              render: (v) => `URL = "https://tb.acme.internal/api/v1/${v}/attributes"\n`,
            },
          ],
        })),
      },
      {
        id: 'thingsboard-mqtt-token',
        title: 'ThingsBoard device access token (MQTT user of v1/devices/me/…)',
        severity: 'high',
        keywords: ['v1/devices/me/'],
        pattern:
          /v1\/devices\/me\/[^\r\n]{0,200}?[ \t](?:-u|--username)[ \t]+["']?([A-Za-z0-9]{20,40})(?![A-Za-z0-9_-])/,
        entropy: 3.5,
        validate: mixesDigitsAndCases,
        samples: lazySamples(() => ({
          match: [fakeToken('', 20, undefined, 'thingsboard-mqtt')],
          ignore: ['ACCESS_TOKEN_PLACEHOLDER'],
          contexts: [
            {
              name: 'mosquitto_pub',
              path: 'scripts/publish.sh',
              render: (v) =>
                `mosquitto_pub -d -q 1 -h tb.acme.internal -p 1883 -t v1/devices/me/telemetry -u "${v}" -m '{"t":21}'\n`,
            },
          ],
        })),
      },
    ],
  },
};

/** Each provider's rules, keyed by file key (the rules' id stem). */
export const INFRA_PROVIDER_RULES: Readonly<Record<string, readonly SecretRule[]>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.rules]),
);

export const INFRA_PROVIDER_INFO: Readonly<Record<string, ProviderInfo>> = Object.fromEntries(
  Object.entries(PROVIDERS).map(([key, provider]) => [key, provider.info]),
);
