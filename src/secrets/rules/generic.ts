import { envEntryContexts, envEntryPattern } from '../env-entry.js';
import { checkedGate, isAlphanumeric, isBase64Url, isBlank, isQuote } from '../gate-checks.js';
import { GATES } from '../generic-gates.js';
import {
  assignmentOf,
  assignmentPattern,
  type GenericKind,
  judgeGenericValue,
  PASSWORD_NAME,
  rejectedOnItsOwn,
  SECRET_NAME,
} from '../generic-value.js';
import { byteAt, withBytesTest } from '../hit-bytes.js';
import {
  keyNameValueMayFollow,
  keyNameValueMayFollowBytes,
  quotedTooWeakBytes,
  tooWeakForKeyName,
} from '../key-name-value.js';
import { isCredentialKeyName } from '../key-names.js';
import { ALNUM, nameGate } from '../name-gate.js';
import { isSpelledInWords } from '../name-shaped-values.js';
import { defineRules, type SampleContext, type SecretRule } from '../rule.js';
import { BASE64, fakeHex, fakeHumanPassword, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';
import {
  CONTINUED_PROPERTY_GATE,
  continuedPropertyPattern,
  SPLIT_FIELD_FORMS,
  SPLIT_FIELD_GATE,
  type SplitFieldForm,
  splitFieldPattern,
  TERRAFORM_VARIABLE_FORM,
} from '../split-fields.js';

/**
 * Secrets that no provider format announces: a value assigned to a password- or secret-like name, in any syntax.
 * These run last; any provider rule on the same text wins.
 */

const PASSWORD_KEYWORDS = ['pass', 'pw', 'psw', 'pssw', 'pasw'];
const SECRET_KEYWORDS = [
  'secret',
  'token',
  'apikey',
  'api_key',
  'api-key',
  'api.key',
  'accesskey',
  'access_key',
  'access-key',
  'access.key',
  'authkey',
  'auth_key',
  'auth-key',
  'api key',
  'access key',
  'secret key',
  'authentication key',
  'authentication_key',
  'privatekey',
  'private_key',
  'private-key',
  'signingkey',
  'signing_key',
  'signing-key',
  'encryptionkey',
  'encryption_key',
  'encryption-key',
  'masterkey',
  'master_key',
  'master-key',
  'appkey',
  'app_key',
  'app-key',
  'credential',
  'bearer',
  'authorization',
];

const judge = (kind: GenericKind) => (value: string, context: Parameters<typeof judgeGenericValue>[2]) =>
  judgeGenericValue(kind, value, context);

const passwordIgnores = [
  'changeme',
  `\${DB_PASSWORD}`,
  'process.env.DB_PASSWORD',
  '<password>',
  'true',
  '********',
  'your-password-here',
  '{{ .Values.password }}',
];
const secretIgnores = [
  'your-api-key',
  `\${API_TOKEN}`,
  'os.environ["API_TOKEN"]',
  'xxxxxxxxxxxxxxxx',
  'sha256-' + fakeToken('', 43, BASE64) + '=',
  '<TOKEN>',
  'secret-name',
];

function generic(
  kind: GenericKind,
  spec: Omit<SecretRule, 'generic' | 'validate' | 'samples' | 'keywords' | 'severity'> & {
    key: string;
    /** The samples, made when first read (see `lazySamples`). */
    match?: () => string[];
    contexts?: SampleContext[];
  },
): SecretRule {
  const { key, match, contexts, ...rest } = spec;
  return {
    ...rest,
    severity: kind === 'password' ? 'high' : 'medium',
    keywords: kind === 'password' ? PASSWORD_KEYWORDS : SECRET_KEYWORDS,
    generic: true,
    validate: judge(kind),
    samples: lazySamples(() => ({
      key,
      match:
        match?.() ??
        (kind === 'password' ? [fakeHumanPassword(), fakeToken('', 16, URL_SAFE)] : [fakeToken('', 32), fakeHex(40)]),
      ignore: kind === 'password' ? passwordIgnores : secretIgnores,
      ...(contexts ? { contexts } : {}),
    })),
  };
}

const withKeywords = (keywords: string[], rule: SecretRule): SecretRule => ({ ...rule, keywords });
const withValidate = (validate: SecretRule['validate'], rule: SecretRule): SecretRule => ({ ...rule, validate });

/** `<token>…</token>`, or the text alone on the next line (pretty-printed XML), whose closing tag the window leaves out. */
const xmlElement = (core: string) =>
  new RegExp(
    `<(?<name>[A-Za-z0-9_.:-]{0,40}?${core}[A-Za-z0-9_.-]{0,30})>(?:(?<secretQuoted>[^<>\\s]{1,200})</|[ \\t]*\\r?\\n[ \\t]*(?<secretText>[^<>\\s]{1,200})[ \\t]*(?=\\r?\\n|$))`,
    'i',
  );
const xmlAttribute = (core: string) =>
  new RegExp(
    `(?:name|key)[ \\t]*=[ \\t]*"(?<name>[^"\\r\\n]{0,40}?${core}[^"\\r\\n]{0,30})"(?:[ \\t]+value[ \\t]*=[ \\t]*"(?<secretQuoted>[^"\\r\\n]{1,200})"|[^<>\\r\\n]{0,80}>(?<secretText>[^<>\\s]{1,200})</)`,
    'i',
  );
const cliFlag = (core: string) =>
  new RegExp(
    `(?:(?:^|[ \\t])--?(?<name>[A-Za-z0-9_-]{0,20}?${core}[A-Za-z0-9_-]{0,10})(?:=|[ \\t]{1,4})|(?:^|\\n)[ \\t]*(?:ENV|ARG)[ \\t]+(?<envName>[A-Za-z0-9_.-]{0,40}?${core}[A-Za-z0-9_.-]{0,40})[ \\t]+)(?:"(?<secretQuoted>[^"\\r\\n]{1,200})"|'(?<secretSingle>[^'\\r\\n]{1,200})'|(?<secretFlag>[^\\s"'=\\\\]{1,200}))`,
    'i',
  );
/** `#define PASSWORD "…"` (C), `%define`/`%global` (RPM spec), `SET password "…"` (batch, Tcl): name and value by space. */
const defineMacro = (core: string) =>
  new RegExp(
    `(?<![^\\s"])(?:[#%][ \\t]*(?:define|global)|set)[ \\t]+(?<name>[A-Za-z0-9_.-]{0,40}?${core}[A-Za-z0-9_.-]{0,30})[ \\t]+(?:\\\\?"(?<secretQuoted>[^"\\\\\\r\\n]{1,200})\\\\?"|'(?<secretSingle>[^'\\r\\n]{1,200})'|(?<secretBare>[^\\s"'\\\\]{1,200}))`,
    'i',
  );

/**
 * An env-entry rule: its window takes in the line before the hit's (`item`), where a value written first sits; a bare
 * value read there is judged as one (`secretBare`), like a bare value after the name.
 */
function k8sEnvRule(kind: GenericKind, spec: Parameters<typeof generic>[1]): SecretRule {
  const rule = generic(kind, { ...spec, window: 'item' });
  const validate = rule.validate!;
  return withValidate(
    (value, context) =>
      validate(value, context.group === 'secretBareItem' ? { ...context, group: 'secretBare' } : context),
    rule,
  );
}

/**
 * A literal fallback in an environment lookup, assigned to a secret-like name: `password = os.environ.get("DB_PASS") or
 * "…"`, `const token = process.env.API_TOKEN || '…'`, `secret := getenv("X", "…")`. The fallback ships in the code.
 * (`getenv("DB_PASSWORD", "…")` is the quoted-name form the assignment rule already reads.)
 */
const ENV_LOOKUP =
  '[ \\t]{0,4}[A-Za-z0-9_$.]{0,40}?(?:getenv|environ\\.get|environ\\[|env\\.get|ENV\\.fetch|ENV\\[|process\\.env\\.|Deno\\.env\\.get|System\\.getenv)';
const envDefault = (core: string) =>
  new RegExp(
    `(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,40}?${core}[A-Za-z0-9_.-]{0,30})["']?[ \\t]{0,4}(?::=|=|:)${ENV_LOOKUP}[^\\r\\n;]{0,80}?(?:,|[ \\t]or[ \\t]|\\|\\||\\?\\?|\\?:)[ \\t]{0,4}(?:"(?<secretQuoted>[^"\\r\\n]{1,200})"|'(?<secretSingle>[^'\\r\\n]{1,200})')`,
    'i',
  );
/**
 * After the keyword: the rest of the name (a password keyword may end 36 characters before it), the separator and the
 * start of an environment lookup. Every credential-named assignment passes the plain assignment gate; only those with
 * a lookup can hold this rule's match.
 */
const ENV_DEFAULT_GATE = nameGate(
  { run: 40, at: 'separator', chars: ':=', value: `${ALNUM}_$.` },
  `["']?[ \\t]{0,4}(?::=|=|:)${ENV_LOOKUP}`,
  'i',
);
const envDefaultContexts = (name: string): SampleContext[] => [
  { name: 'python', path: 'app/settings.py', render: (v) => `${name} = os.environ.get("APP_VALUE") or "${v}"\n` },
  { name: 'node', path: 'src/db.js', render: (v) => `const ${name} = process.env.APP_VALUE || '${v}';\n` },
  { name: 'go', path: 'cmd/main.go', render: (v) => `\t${name} := getenv("APP_VALUE", "${v}")\n` },
  { name: 'ruby', path: 'config/app.rb', render: (v) => `${name} = ENV.fetch("APP_VALUE", "${v}")\n` },
];

/**
 * Names ending in `Key` or `auth` whose first words say whose key it is (`stripeKey`, `CLIENT_KEY`, `proxy_auth`):
 * the case tells a word boundary (`stripeKey`, not `monkey`), so the name is read without `i`. Names the plain
 * assignment rule knows (`apiKey`, `secretKey`) are its own.
 */
const KEY_NAME = `(?<![A-Za-z0-9_.-])(?<name>(?:[A-Za-z0-9_.-]{0,60}?(?:[a-z0-9](?:Key|Auth)|[A-Za-z0-9][_-](?:key|Key|KEY|auth|Auth|AUTH))|_?(?:auth|Auth|AUTH))[0-9]{0,2})`;
const KNOWN_NAME = new RegExp(`${SECRET_NAME}|${PASSWORD_NAME}`, 'i');
const CODE_Y = 0x79;
/** Whether the `key` or `auth` hit ending at `after` starts a word: after `_`, `-`, a camel hump, or alone (`auth`). */
function startsNameWord(text: string, after: number): boolean {
  const length = (text.charCodeAt(after - 1) | 0x20) === CODE_Y ? 3 : 4;
  const start = after - length;
  return startsWordFrom(length, text.charCodeAt(start), start > 0 ? text.charCodeAt(start - 1) : -1);
}
/** `startsNameWord` on bytes. */
function startsNameWordBytes(bytes: Uint8Array, after: number): boolean {
  const length = (byteAt(bytes, after - 1) | 0x20) === CODE_Y ? 3 : 4;
  const start = after - length;
  return startsWordFrom(length, byteAt(bytes, start), start > 0 ? byteAt(bytes, start - 1) : -1);
}
/** `startsNameWord`'s verdict from the name word's length, its first code and the code before it (-1 for none). */
function startsWordFrom(length: number, first: number, before: number): boolean {
  if (before === 95 || before === 45) return true;
  if (first >= 65 && first <= 90 && ((before >= 97 && before <= 122) || (before >= 48 && before <= 57))) return true;
  return length === 4 && !(isAlphanumeric(before) || before === 46);
}
/**
 * Whether at most two digits and then no name character follow the `key` or `auth` hit ending at `after`, as
 * `KEY_NAME` ends a name (its separator starts with none): `primaryKeys`, `authority` and `keyboard` open no window.
 */
function endsNameAfterDigits(text: string, after: number): boolean {
  let at = after;
  while (at < after + 2 && isAsciiDigit(text.charCodeAt(at))) at++;
  const code = text.charCodeAt(at);
  return !(isAsciiDigit(code) || isBase64Url(code) || code === 46);
}
function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
/**
 * What `judgeKeyName` rejects in any value, whatever its name: fewer than 16 characters, no digit or no letter. With
 * `rejectedOnItsOwn`, what the gate turns down quoted (`"limit_key": "MaxResults"` in API models).
 */
function keyNameValueRejected(value: string): boolean {
  return tooWeakForKeyName(value) || rejectedOnItsOwn(value);
}
/**
 * The assignment gate's shape, the name ending within two digits of the keyword, behind a look at the word start and
 * a look ahead at what the pattern's separator and value would take there (`keyNameValueMayFollow`: no window at
 * `export type TagKey = string;` or `"auth": [`).
 */
const KEY_NAME_GATE = withBytesTest(
  checkedGate(
    nameGate(
      { run: 2, at: 'separator', chars: '=:,?![', quoted: keyNameValueRejected },
      String.raw`\\?["']?[ \t]{0,8}(?:[=:?!]|,[ \t]{0,16}["']|\[[0-9]{0,4}\][ \t]{0,4}=)`,
    ),
    (text, after) =>
      startsNameWord(text, after) && endsNameAfterDigits(text, after) && keyNameValueMayFollow(text, after),
  ),
  keyNameBytes,
);
/**
 * The key-name gate on bytes (`HitBytesTest`): its check, its quoted-value check, and its regex's `,` and `[` forms
 * (`,` then a quote, `[0]` then `=`). The byte scan drops a `key` hit of `monkey` or `"key"`, and only walks (no rule
 * call) at `export type TagKey = string;`, `"limit_key": "MaxResults"`, `TagKey[];` or `makeStateKey, merge…`.
 */
function keyNameBytes(bytes: Uint8Array, after: number): boolean {
  if (!startsNameWordBytes(bytes, after)) return false;
  let end = after;
  while (end < after + 2 && isAsciiDigit(byteAt(bytes, end))) end++;
  const code = byteAt(bytes, end);
  if (isAsciiDigit(code) || isBase64Url(code) || code === 46) return false;
  return keyNameValueMayFollowBytes(bytes, after) && listFormMayFollow(bytes, end) && !quotedTooWeakBytes(bytes, end);
}
/**
 * False only when the key-name gate's regex fails after a name ending at `end` whose separator is `,` or `[`: past
 * `\\?["']?[ \t]{0,8}` (as `keyNameValueMayFollow` reads it), `,` needs at most 16 blanks and a quote, `[` at most
 * four digits, `]`, at most four blanks and `=`. True for any other separator, and wherever only the regex can tell.
 */
function listFormMayFollow(bytes: Uint8Array, end: number): boolean {
  let at = end;
  const quote = byteAt(bytes, at) === 92 ? byteAt(bytes, at + 1) : byteAt(bytes, at);
  if (isQuote(quote)) at += byteAt(bytes, at) === 92 ? 2 : 1;
  const blanks = at;
  while (isBlank(byteAt(bytes, at))) if (++at - blanks > 8) return true;
  const separator = byteAt(bytes, at++);
  if (separator === 44) {
    const from = at;
    while (isBlank(byteAt(bytes, at))) if (++at - from > 16) return false;
    return isQuote(byteAt(bytes, at));
  }
  if (separator !== 91) return true;
  const digits = at;
  while (at - digits < 4 && isAsciiDigit(byteAt(bytes, at))) at++;
  if (byteAt(bytes, at++) !== 93) return false;
  const from = at;
  while (at - from < 4 && isBlank(byteAt(bytes, at))) at++;
  return byteAt(bytes, at) === 61;
}
/** A key named only by whose it is is weaker evidence than `api_key`: a key-length value of letters and digits. */
function judgeKeyName(value: string, context: Parameters<typeof judgeGenericValue>[2]): boolean {
  const name = context.name ?? '';
  if (KNOWN_NAME.test(name) || !isCredentialKeyName(name)) return false;
  if (tooWeakForKeyName(value) || isSpelledInWords(value)) return false;
  return judgeGenericValue('secret', value, context);
}

const splitFieldContexts = (name: string, forms: readonly SplitFieldForm[] = SPLIT_FIELD_FORMS): SampleContext[] =>
  forms.map((form) => ({
    name: form.syntax,
    path: form.example.startsWith('<')
      ? 'conf/site.xml'
      : form.example.includes('"value"')
        ? 'settings.json'
        : 'main.tf',
    render: (v: string) => `${form.example.replace('NAME', name).replace('VALUE', v)}\n`,
  }));

/** A variable's name, the arguments before its default (a description of a few lines at most) and the default. */
const TERRAFORM_VARIABLE_BLOCK = 1200;
const terraformVariableContexts = (name: string): SampleContext[] => [
  ...splitFieldContexts(name, [TERRAFORM_VARIABLE_FORM]),
  {
    name: 'variable with a description and type first',
    path: 'variables.tf',
    render: (v) =>
      `variable "${name}" {\n  description = "Used by the app"\n  type        = string\n  sensitive   = true\n  default     = "${v}"\n}\n`,
  },
];

export default defineRules([
  generic('password', {
    id: 'generic-password-env-default',
    gate: ENV_DEFAULT_GATE,
    title: 'Password as the fallback of an environment lookup',
    pattern: envDefault(PASSWORD_NAME),
    key: 'db_password',
    contexts: envDefaultContexts('db_password'),
  }),
  generic('secret', {
    id: 'generic-secret-env-default',
    gate: ENV_DEFAULT_GATE,
    title: 'Secret or token as the fallback of an environment lookup',
    pattern: envDefault(SECRET_NAME),
    key: 'api_token',
    contexts: envDefaultContexts('api_token'),
  }),
  generic('password', {
    id: 'generic-password-xml',
    gate: GATES.xmlElement,
    title: 'Password in an XML element',
    pattern: xmlElement(PASSWORD_NAME),
    key: '<password>',
    match: () => [fakeHumanPassword()],
    contexts: [
      {
        name: 'maven settings',
        path: 'settings.xml',
        render: (v) => `<server>\n  <id>nexus</id>\n  <password>${v}</password>\n</server>\n`,
      },
      {
        name: 'pretty-printed maven settings',
        path: 'settings.xml',
        render: (v) => `<server>\n  <password>\n    ${v}\n  </password>\n</server>\n`,
      },
    ],
  }),
  generic('secret', {
    id: 'generic-secret-xml',
    gate: GATES.xmlElement,
    title: 'Secret or token in an XML element',
    pattern: xmlElement(SECRET_NAME),
    key: '<apiToken>',
    match: () => [fakeToken('', 32)],
    contexts: [
      {
        name: 'xml config',
        path: 'app.config.xml',
        render: (v) => `<config>\n  <apiToken>${v}</apiToken>\n</config>\n`,
      },
      {
        name: 'pretty-printed xml',
        path: 'app.config.xml',
        render: (v) => `<config>\n  <apiToken>\n    ${v}\n  </apiToken>\n</config>\n`,
      },
    ],
  }),
  generic('password', {
    id: 'generic-password-xml-attribute',
    gate: GATES.xmlAttribute,
    title: 'Password in an XML setting (name="…password…")',
    pattern: xmlAttribute(PASSWORD_NAME),
    key: '<add key="DbPassword" value=',
    match: () => [fakeHumanPassword()],
    contexts: [
      {
        name: 'web.config',
        path: 'web.config',
        render: (v) => `<appSettings>\n  <add key="DbPassword" value="${v}" />\n</appSettings>\n`,
      },
      {
        name: 'android strings',
        path: 'res/values/strings.xml',
        render: (v) => `<resources>\n  <string name="db_password">${v}</string>\n</resources>\n`,
      },
    ],
  }),
  generic('secret', {
    id: 'generic-secret-xml-attribute',
    gate: GATES.xmlAttribute,
    title: 'Secret or token in an XML setting (name="…key…")',
    pattern: xmlAttribute(SECRET_NAME),
    key: '<string name="api_key">',
    match: () => [fakeToken('', 39, URL_SAFE)],
    contexts: [
      {
        name: 'android strings',
        path: 'res/values/strings.xml',
        render: (v) => `<resources>\n  <string name="api_key">${v}</string>\n</resources>\n`,
      },
      {
        name: 'web.config',
        path: 'web.config',
        render: (v) => `<appSettings>\n  <add key="ApiSecret" value="${v}" />\n</appSettings>\n`,
      },
    ],
  }),
  generic('password', {
    id: 'generic-password-cli-flag',
    gate: GATES.cliFlag,
    title: 'Password on a command line or in a Dockerfile ENV',
    pattern: cliFlag(PASSWORD_NAME),
    key: '--password',
    contexts: [
      {
        name: 'shell command',
        path: 'scripts/restore.sh',
        render: (v) => `rabbitmqadmin --host mq.internal --password=${v} list queues\n`,
      },
      {
        name: 'PowerShell parameter',
        path: 'deploy/join.ps1',
        render: (v) => `New-LocalUser -Name svc -Password '${v}' -Description 'service'\n`,
      },
      { name: 'Dockerfile ENV', path: 'Dockerfile', render: (v) => `FROM postgres:16\nENV DB_PASSWORD ${v}\n` },
    ],
  }),
  generic('secret', {
    id: 'generic-secret-cli-flag',
    gate: GATES.cliFlag,
    title: 'Token on a command line or in a Dockerfile ENV',
    pattern: cliFlag(`(?:${SECRET_NAME}|bearer)`),
    key: '--api-token',
    contexts: [
      {
        name: 'shell command',
        path: 'scripts/deploy.sh',
        render: (v) => `deployctl push --api-token ${v} --region eu\n`,
      },
      {
        name: 'curl bearer',
        path: 'scripts/call.sh',
        render: (v) => `curl --oauth2-bearer "${v}" https://api.acme.dev\n`,
      },
      { name: 'Dockerfile ENV', path: 'Dockerfile', render: (v) => `FROM node:20\nENV API_TOKEN ${v}\n` },
    ],
  }),
  generic('password', {
    id: 'generic-password-define',
    gate: GATES.defineMacro,
    title: 'Password in a macro definition (#define PASSWORD "…")',
    pattern: defineMacro(PASSWORD_NAME),
    key: '#define DB_PASSWORD',
    contexts: [
      { name: 'C header', path: 'src/config.h', render: (v) => `#pragma once\n#define DB_PASSWORD "${v}"\n` },
      { name: 'C tab-separated', path: 'src/auth.c', render: (v) => `#define\tADMIN_PASS\t"${v}"\n` },
      { name: 'RPM spec', path: 'app.spec', render: (v) => `%global repo_password "${v}"\nName: app\n` },
      { name: 'batch file', path: 'scripts/setup.bat', render: (v) => `@echo off\nSET SQL_PASSWORD "${v}"\n` },
    ],
  }),
  generic('secret', {
    id: 'generic-secret-define',
    gate: GATES.defineMacro,
    title: 'Secret or token in a macro definition (#define API_TOKEN "…")',
    pattern: defineMacro(SECRET_NAME),
    key: '#define API_TOKEN',
    contexts: [
      { name: 'C header', path: 'src/keys.h', render: (v) => `#pragma once\n#define API_TOKEN "${v}"\n` },
      { name: 'RPM spec', path: 'app.spec', render: (v) => `%define upload_token ${v}\nName: app\n` },
    ],
  }),
  k8sEnvRule('password', {
    id: 'generic-password-k8s-env',
    gate: GATES.k8sEnv,
    title: 'Password in a container env entry (name: …PASSWORD / value: …)',
    pattern: envEntryPattern(PASSWORD_NAME),
    key: '- name: DB_PASSWORD\n  value:',
    contexts: envEntryContexts('DB_PASSWORD', (v) => `"${v}"`),
  }),
  k8sEnvRule('secret', {
    id: 'generic-secret-k8s-env',
    gate: GATES.k8sEnv,
    title: 'Secret in a container env entry (name: …TOKEN / value: …)',
    pattern: envEntryPattern(SECRET_NAME),
    key: '- name: API_TOKEN\n  value:',
    contexts: envEntryContexts('API_TOKEN', (v) => v),
  }),
  // Android builds put keys into the app as `buildConfigField "String", "MAPS_API_KEY", "\"…\""` (or `'"…"'` in
  // Groovy) and `resValue "string", "maps_api_key", "…"`: the field name says what the value is. The call's name is
  // the keyword: every match starts with it, and a secret-named key (on every line of keyword-dense data) is not one.
  withKeywords(
    ['buildconfigfield', 'resvalue'],
    generic('secret', {
      id: 'generic-secret-gradle-field',
      title: 'Secret in an Android Gradle build field (buildConfigField, resValue)',
      pattern: new RegExp(
        `(?:buildConfigField[ \\t]*\\(?[ \\t]*["']String["']|resValue[ \\t]*\\(?[ \\t]*["']string["'])[ \\t]*,[ \\t]*["'](?<name>[A-Za-z0-9_.]{0,40}?(?:${SECRET_NAME}|${PASSWORD_NAME})[A-Za-z0-9_.]{0,30})["'][ \\t]*,[ \\t]*(?:'"|"\\\\"|["'])(?<secretQuoted>[^"'\\\\\\s]{1,200})`,
        'i',
      ),
      key: 'MAPS_API_KEY',
      contexts: [
        {
          name: 'Groovy build.gradle',
          path: 'app/build.gradle',
          render: (v) =>
            `android {\n  defaultConfig {\n    buildConfigField 'String', 'MAPS_API_KEY', '"${v}"'\n  }\n}\n`,
        },
        {
          name: 'Kotlin build.gradle.kts',
          path: 'app/build.gradle.kts',
          render: (v) =>
            `android {\n  defaultConfig {\n    buildConfigField("String", "MAPS_API_KEY", "\\"${v}\\"")\n  }\n}\n`,
        },
        {
          name: 'resValue',
          path: 'app/build.gradle',
          render: (v) => `android {\n  defaultConfig {\n    resValue "string", "maps_api_key", "${v}"\n  }\n}\n`,
        },
      ],
    }),
  ),
  generic('password', {
    id: 'generic-password-split-field',
    gate: SPLIT_FIELD_GATE,
    title: 'Password in a name/value pair ({"name": "DB_PASSWORD", "value": …})',
    reference: SPLIT_FIELD_FORMS[0]!.reference,
    pattern: splitFieldPattern(PASSWORD_NAME),
    key: 'DB_PASSWORD',
    match: () => [fakeHumanPassword()],
    contexts: splitFieldContexts('DB_PASSWORD'),
  }),
  generic('secret', {
    id: 'generic-secret-split-field',
    gate: SPLIT_FIELD_GATE,
    title: 'Secret or token in a name/value pair ({"name": "API_TOKEN", "value": …})',
    reference: SPLIT_FIELD_FORMS[0]!.reference,
    pattern: splitFieldPattern(SECRET_NAME),
    key: 'API_TOKEN',
    match: () => [fakeToken('', 32)],
    contexts: splitFieldContexts('API_TOKEN'),
  }),
  generic('password', {
    id: 'generic-password-terraform-variable',
    gate: SPLIT_FIELD_GATE,
    title: 'Password as the default of a Terraform variable',
    reference: TERRAFORM_VARIABLE_FORM.reference,
    pattern: splitFieldPattern(PASSWORD_NAME, [TERRAFORM_VARIABLE_FORM]),
    window: 'block',
    maxLength: TERRAFORM_VARIABLE_BLOCK,
    key: 'db_password',
    match: () => [fakeHumanPassword()],
    contexts: terraformVariableContexts('db_password'),
  }),
  generic('secret', {
    id: 'generic-secret-terraform-variable',
    gate: SPLIT_FIELD_GATE,
    title: 'Secret or token as the default of a Terraform variable',
    reference: TERRAFORM_VARIABLE_FORM.reference,
    pattern: splitFieldPattern(SECRET_NAME, [TERRAFORM_VARIABLE_FORM]),
    window: 'block',
    maxLength: TERRAFORM_VARIABLE_BLOCK,
    key: 'api_token',
    match: () => [fakeToken('', 32)],
    contexts: terraformVariableContexts('api_token'),
  }),
  generic('password', {
    id: 'generic-password-continued-property',
    gate: CONTINUED_PROPERTY_GATE,
    title: 'Password on the continuation line of a .properties entry',
    reference: 'https://docs.oracle.com/javase/8/docs/api/java/util/Properties.html#load-java.io.Reader-',
    onlyPaths: /\.properties$/,
    pattern: continuedPropertyPattern(PASSWORD_NAME),
    key: 'db.password',
    contexts: [
      {
        name: 'properties',
        path: 'src/main/resources/application.properties',
        render: (v) => `db.url=jdbc:postgresql://db.internal/app\ndb.password=\\\n    ${v}\n`,
      },
    ],
  }),
  withValidate(
    judgeKeyName,
    withKeywords(
      ['key', 'auth'],
      generic('secret', {
        id: 'generic-secret-key-name',
        gate: KEY_NAME_GATE,
        title: 'Key named for whose it is (stripeKey, CLIENT_KEY, proxy_auth) in an assignment',
        reference: 'https://cwe.mitre.org/data/definitions/798.html',
        pattern: assignmentOf(KEY_NAME, ''),
        key: 'stripeKey',
        match: () => [fakeToken('', 32), fakeHex(40)],
      }),
    ),
  ),
  generic('password', {
    id: 'generic-password',
    gate: GATES.assignment,
    title: 'Password in an assignment',
    pattern: assignmentPattern(PASSWORD_NAME, { comparisons: true }),
    key: 'db_password',
  }),
  generic('secret', {
    id: 'generic-secret',
    gate: GATES.secretAssignment,
    title: 'Secret or token in an assignment',
    pattern: assignmentPattern(SECRET_NAME),
    key: 'api_token',
  }),
  generic('password', {
    id: 'generic-password-netrc',
    gate: GATES.netrc,
    title: 'Password in a .netrc file',
    onlyPaths: /(?:^|\/)[._]netrc$/,
    pattern: /(?:^|[ \t])(?<name>password|passwd)[ \t]+(?<secretNetrc>[^\s]{1,200})/,
    key: 'password',
    contexts: [
      { name: '.netrc', path: '.netrc', render: (v) => `machine api.acme.internal\n  login deploy\n  password ${v}\n` },
    ],
  }),
  {
    id: 'generic-bearer-token',
    title: 'Bearer token in an Authorization header',
    severity: 'high',
    keywords: ['bearer '],
    generic: true,
    gate: /[ \t]{0,3}[A-Za-z0-9._~+/-]{20}/,
    pattern: /Bearer[ \t]{1,4}([A-Za-z0-9._~+/-]{20,500}=*)(?![A-Za-z0-9._~+/=-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      key: 'Authorization',
      match: [`Bearer ${fakeToken('', 40, URL_SAFE)}`],
      ignore: [`Bearer \${API_TOKEN}`, 'Bearer <token>', 'Bearer token'],
    })),
  },
]);
