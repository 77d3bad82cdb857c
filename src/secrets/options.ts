import { z } from 'zod';
import { SEVERITIES } from '../core/finding.js';
import { FIXTURE_MODES } from './fixtures.js';
import { superLinearReason } from './redos.js';

function regexSource() {
  return z
    .string()
    .min(1)
    .superRefine((source, ctx) => {
      try {
        new RegExp(source);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(error as Error).message}` });
      }
    });
}

function customRuleSchema() {
  return z
    .object({
      id: z
        .string()
        .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected a kebab-case id like "acme-api-key"')
        .describe('Rule id, kebab-case, shown in findings as secrets/<id>.'),
      title: z.string().min(1).optional().describe('Shown in findings; default: the id.'),
      pattern: regexSource().describe(
        'JavaScript regular expression; the secret is the group named "secret", else group 1, else the whole match.',
      ),
      keywords: z
        .array(z.string().min(2))
        .min(1)
        .describe('Case-insensitive literals of which one occurs in every match; the rule runs only near them.'),
      severity: z.enum(SEVERITIES).default('high'),
      entropy: z
        .number()
        .min(0)
        .max(8)
        .optional()
        .describe('Minimum Shannon entropy of the secret, bits per character.'),
      caseInsensitive: z.boolean().default(false),
    })
    .strict()
    .superRefine((rule, ctx) => {
      // A rule runs on every changed file: one that backtracks without bound would hang the gate.
      const reason = superLinearReason(rule.pattern, rule.caseInsensitive ? 'i' : '');
      if (reason)
        ctx.addIssue({
          code: 'custom',
          path: ['pattern'],
          message: `may take super-linear time (${reason}); make repeated parts unable to match the same text, e.g. "(?:[a-z]+\\.)+" not "(?:[a-z]+\\.?)+"`,
        });
    });
}
export type CustomRule = z.output<ReturnType<typeof customRuleSchema>>;

/** Credentials are sent only over HTTPS. */
function httpsUrl() {
  return z
    .string()
    .url()
    .refine((url) => url.startsWith('https://'), 'must be an https:// URL (credentials are never sent in clear)');
}

/**
 * The most threads `tollgate scan` runs on files on disk, whatever the cores: each worker holds its own compiled rules
 * and buffers (100-130 MiB).
 */
export const MAX_SCAN_THREADS = 16;
const scanThreadsError = `expected a whole number from 1 to ${MAX_SCAN_THREADS}`;

/** A cap on scanning threads, from config (`secrets.maxThreads`) or, coerced from text, `--max-threads`. */
export const scanThreadsCap = z
  .number({ error: scanThreadsError })
  .int({ error: scanThreadsError })
  .min(1, { error: scanThreadsError })
  .max(MAX_SCAN_THREADS, { error: scanThreadsError });
export const scanThreadsFlag = z.string().transform(Number).pipe(scanThreadsCap);

/** What to scan and which findings count: the fields a project sets most. */
function scanFields() {
  return {
    scope: z
      .enum(['added', 'files'])
      .default('added')
      .describe('`added`: scan only the lines the change adds; `files`: every line of every changed file.'),
    paths: z
      .array(z.string().min(1))
      .default([])
      .describe('Glob patterns of files never scanned (test fixtures, vendored code), e.g. "test/fixtures/**".'),
    rules: z.array(customRuleSchema()).default([]).describe('Extra rules for your own token formats.'),
    baseline: z
      .string()
      .min(1)
      .default('.tollgate/secrets-baseline.json')
      .describe(
        'Known findings (by fingerprint) that no longer block; written by `tollgate scan --baseline-write`. In the gate a high or critical one is cleared only by a baseline in the repository (tracked or in the diff), not by the ignored .tollgate/.',
      ),
    encryptedKeys: z
      .enum(['report', 'ignore'])
      .default('report')
      .describe(
        '`report`: passphrase-protected private keys (PEM with a cipher, ENCRYPTED PRIVATE KEY, PuTTY with Encryption) are findings of medium severity; `ignore`: they are not reported at all.',
      ),
    fixtures: z
      .enum(FIXTURE_MODES)
      .default('report')
      .describe(
        '`report`: a finding in a test, fixture, example or docs path whose value looks made up (or a generic-rule match there) is shown and counted with low severity and `fixture: true`, but does not block; `block`: it blocks like any finding; `ignore`: it is not shown (only counted). A checksum-valid provider token is never a fixture.',
      ),
    redactAfterAttempts: z
      .union([z.literal(false), z.number().int().min(1).max(20)])
      .default(false)
      .describe('Pre-commit hook: after this many blocked attempts on the same findings, redact them. Off by default.'),
    gitleaksConfig: z
      .string()
      .min(1)
      .optional()
      .describe('Path of a gitleaks TOML config whose [[rules]] and [allowlist] are imported.'),
    gitleaksIgnore: z
      .union([z.string().min(1), z.literal(false)])
      .optional()
      .describe(
        'A gitleaks ignore file whose fingerprints ([commit:]file:rule-id:line) clear the finding at that place; default: .gitleaksignore when it exists; false: none.',
      ),
    secretlintConfig: z
      .union([z.string().min(1), z.literal(false)])
      .optional()
      .describe(
        "A secretlint config (JSON or YAML) whose rules' `allows` patterns clear matching secrets; default: the first .secretlintrc(.json|.yaml|.yml) that exists; false: none.",
      ),
  };
}

/** How `tollgate scan` runs: threads and live verification. */
function runFields() {
  return {
    maxThreads: scanThreadsCap
      .optional()
      .describe(
        '`tollgate scan` of files on disk: at most this many threads (1 = no worker; `--max-threads` overrides). Default: one per core, up to 16, and one more than the main thread only per 128 MB to scan.',
      ),
    verify: z
      .boolean()
      .default(false)
      .describe(
        "`tollgate scan`: ask each found credential's own provider (read-only HTTPS endpoint) whether it is live, as `--verify` does. Off when permissions.network is deny.",
      ),
    verifyLimit: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(50)
      .describe('At most this many verification requests per run; the rest are reported `unknown`.'),
    verifyEndpoints: z
      .object({
        github: httpsUrl().optional().describe('GitHub Enterprise API base, e.g. https://github.example.com/api/v3'),
        gitlab: httpsUrl().optional().describe('GitLab self-managed base, e.g. https://gitlab.example.com'),
        mailgun: z
          .enum(['https://api.mailgun.net', 'https://api.eu.mailgun.net'])
          .optional()
          .describe("Mailgun's region: https://api.eu.mailgun.net for EU accounts (the only two Mailgun API hosts)."),
      })
      .strict()
      .prefault({})
      .describe(
        "API bases for self-hosted GitHub and GitLab and Mailgun's EU region; every other provider is asked only at its own host.",
      ),
  };
}

/** Each custom rule's id is used once. */
function uniqueRuleIds(options: { rules: readonly { id: string }[] }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  options.rules.forEach((rule, index) => {
    const first = seen.get(rule.id);
    if (first === undefined) seen.set(rule.id, index);
    else
      ctx.addIssue({
        code: 'custom',
        path: ['rules', index, 'id'],
        message: `duplicate rule id ${JSON.stringify(rule.id)} (first used by secrets.rules[${first}])`,
      });
  });
}

function makeSecretsOptionsSchema() {
  return z
    .object({ ...scanFields(), ...runFields() })
    .strict()
    .superRefine(uniqueRuleIds)
    .prefault({});
}

let secretsSchemaMade: ReturnType<typeof makeSecretsOptionsSchema> | undefined;

/**
 * The `secrets` config section's schema, built at its first use: building its zod objects was a tenth of a one-file
 * scan's start, and a scan outside a repository needs only the defaults (`defaultSecretsOptions`).
 */
export function secretsOptionsSchema(): ReturnType<typeof makeSecretsOptionsSchema> {
  secretsSchemaMade ??= makeSecretsOptionsSchema();
  return secretsSchemaMade;
}

export type SecretsOptions = z.output<ReturnType<typeof makeSecretsOptionsSchema>>;

/** `secretsOptionsSchema().parse(undefined)` without building the schema (a test holds the two equal). */
export function defaultSecretsOptions(): SecretsOptions {
  return {
    scope: 'added',
    paths: [],
    rules: [],
    baseline: '.tollgate/secrets-baseline.json',
    encryptedKeys: 'report',
    fixtures: 'report',
    redactAfterAttempts: false,
    verify: false,
    verifyLimit: 50,
    verifyEndpoints: {},
  };
}

/** The tool's call input: explicit paths to scan instead of the change set (the agent's "scan these files"). */
export const secretsInputSchema = z
  .object({
    paths: z.array(z.string().min(1)).optional().describe('Scan these files or folders instead of the change set.'),
  })
  .strict()
  .prefault({});
