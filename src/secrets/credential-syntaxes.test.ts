import { describe, expect, test } from 'vitest';
import { isCredentialKeyName } from './key-names.js';
import { builtinRules } from './rules/index.js';
import { fakeHumanPassword, fakeToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

/**
 * Names and syntaxes a `name = value` reading misses: names ending in `Key` or `auth`, a name and its value in
 * separate fields, C-family and compiled-language literals, connection strings and tools' own files. Each syntax has a
 * real-looking secret (found, once) and real-looking code where the same name holds no secret (nothing found).
 */

const scanner = new SecretScanner(builtinRules);
const findings = (text: string, path: string) =>
  scanner.scanText(text, { path }).map((item) => `${item.rule.id} ${item.secret}`);

const password = fakeHumanPassword('credential-syntaxes');
const token = fakeToken('', 32, undefined, 'credential-syntaxes');

/** Each syntax: a name, a path, the text with `«P»` (a password) or `«T»` (a token), and a negative in the same syntax. */
type Syntax = readonly [name: string, path: string, text: string, negative: string];
const render = (text: string) => text.replace('«P»', password).replace('«T»', token);
const expected = (text: string) => (text.includes('«P»') ? password : token);

const KEY_NAMES: readonly Syntax[] = [
  ['camelCase Key in TypeScript', 'src/pay.ts', 'const stripeKey = "«T»";', 'const primaryKey = "«T»";'],
  ['clientKey in an object', 'src/client.ts', "  clientKey: '«T»',", "  cacheKey: 'users_by_team',"],
  ['_KEY in .env', '.env', 'STRIPE_KEY=«T»', 'SORT_KEY=created_at_desc'],
  ['_KEY suffixed by a digit', 'config/app.yaml', 'license_key2: «T»', 'partition_key2: tenant_id'],
  ['-key in YAML', 'values.yaml', 'webhook-key: «T»', 'i18n-key: errors.password.too_short'],
  ['a proxy_auth', 'config/proxy.ini', 'proxy_auth = «T»', 'no_auth = true'],
  ['a bare auth in code', 'src/config.py', 'auth = "«T»"', 'auth = "basic"'],
  ['_PWD', '.env', 'SQL_PWD=«P»', 'OLD_PWD=/home/app'],
  ['a Passphrase', 'src/ssh.ts', 'const sshPassphrase = "«P»";', 'const sshPassphrase = process.env.SSH_PASSPHRASE;'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference under test
  ['authorization', 'config.json', '{"authorization": "«T»"}', '{"authorization": "Bearer ${API_TOKEN}"}'],
  ['credentials', 'config/app.yaml', 'credentials: «T»', 'credentials: ~/.aws/credentials'],
];

const SPLIT_FIELDS: readonly Syntax[] = [
  [
    'JSON key/value pair',
    'settings.json',
    '[{"key": "password", "value": "«P»"}]',
    '[{"key": "password", "value": "Enter your password"}]',
  ],
  [
    'Azure app settings',
    'appsettings.azure.json',
    '[\n  {\n    "name": "DB_PASSWORD",\n    "value": "«P»",\n    "slotSetting": false\n  }\n]',
    '[\n  {\n    "name": "DB_PASSWORD",\n    "value": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/db)"\n  }\n]',
  ],
  [
    'ECS task environment',
    'task-definition.json',
    '"environment": [{ "name": "API_TOKEN", "value": "«T»" }]',
    '"environment": [{ "name": "API_TOKEN_TTL", "value": "3600" }]',
  ],
  [
    'Kubernetes env in YAML',
    'k8s/deployment.yaml',
    'env:\n  - name: DB_PASSWORD\n    value: "«P»"',
    'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: { name: db, key: password }',
  ],
  [
    'CloudFormation parameters',
    'params.json',
    '[{ "ParameterKey": "DbPassword", "ParameterValue": "«P»" }]',
    '[{ "ParameterKey": "DbPassword", "ParameterValue": "{{resolve:ssm-secure:db-password}}" }]',
  ],
  [
    'Terraform app_setting block',
    'main.tf',
    'app_setting {\n  name  = "API_TOKEN"\n  value = "«T»"\n}',
    'app_setting {\n  name  = "API_TOKEN"\n  value = var.api_token\n}',
  ],
  [
    'Terraform variable default',
    'variables.tf',
    'variable "db_password" {\n  default = "«P»"\n}',
    'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
  ],
  [
    'Terraform variable default after its description and type',
    'variables.tf',
    'variable "db_password" {\n  description = "The database password"\n  type        = string\n  sensitive   = true\n  default     = "«P»"\n}',
    'variable "db_password" {\n  description = "The database password"\n  type        = string\n  default     = var.fallback\n}',
  ],
  [
    'Hadoop site XML',
    'conf/core-site.xml',
    '<property>\n  <name>fs.s3a.secret.key</name>\n  <value>«T»</value>\n</property>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference under test
    '<property>\n  <name>fs.s3a.secret.key</name>\n  <value>${env.S3_SECRET}</value>\n</property>',
  ],
  [
    'XML name/value on one line',
    'conf/hive-site.xml',
    '<property><name>javax.jdo.option.ConnectionPassword</name><value>«P»</value></property>',
    '<property><name>hive.password.min.length</name><value>12</value></property>',
  ],
  [
    'property list',
    'Info.plist',
    '<key>ApiToken</key>\n<string>«T»</string>',
    '<key>ApiTokenHeaderName</key>\n<string>X-Api-Token</string>',
  ],
  ['.NET appSettings', 'web.config', '<add key="ApiKey" value="«T»"/>', '<add key="ApiKeyHeader" value="X-Api-Key"/>'],
  [
    '.properties continuation line',
    'src/main/resources/app.properties',
    'db.password=\\\n    «P»',
    'db.password.policy=\\\n    strict',
  ],
];

const COMPILED_LITERALS: readonly Syntax[] = [
  ['C char array', 'src/auth.c', 'char pw[] = "«P»";', 'char pw[64] = "";'],
  ['C sized char array', 'src/auth.c', 'static char db_password[32] = "«P»";', 'static char db_password[32] = "%s";'],
  ['C pointer', 'src/api.c', 'static const char *token = "«T»";', 'static const char *token = "Bearer %s";'],
  ['#define', 'src/keys.h', '#define API_KEY "«T»"', '#define API_KEY_HEADER "X-Api-Key"'],
  ['Go const block', 'cmd/main.go', 'const (\n\tapiKey = "«T»"\n\tretries = 3\n)', 'const (\n\tapiKey = "API_KEY"\n)'],
  ['Kotlin val', 'src/Api.kt', 'val secret = "«T»"', 'val secret = BuildConfig.API_SECRET'],
  ['Scala val', 'src/Api.scala', 'val secret = "«T»"', 'val secret = sys.env("API_SECRET")'],
  [
    'Swift let',
    'Sources/Api.swift',
    'let apiKey = "«T»"',
    'let apiKey = ProcessInfo.processInfo.environment["API_KEY"]',
  ],
  ['Rust const &str', 'src/main.rs', 'const API_KEY: &str = "«T»";', 'const API_KEY: &str = "API_KEY";'],
  [
    "Rust static &'static str",
    'src/main.rs',
    'static SECRET: &\'static str = "«T»";',
    'static SECRET: &\'static str = env!("SECRET");',
  ],
];

const CONNECTIONS_AND_TOOLS: readonly Syntax[] = [
  [
    'ADO.NET Pwd=',
    'src/Db.cs',
    'var cs = "Server=db.internal;Database=app;User Id=sa;Pwd=«P»;";',
    'var cs = "Server=db.internal;Database=app;Integrated Security=SSPI;";',
  ],
  [
    'ODBC Password=',
    'config/odbc.ini',
    'ConnectionString=Driver={ODBC Driver 18};Server=db.internal;Uid=app;Password=«P»;',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference under test
    'ConnectionString=Driver={ODBC Driver 18};Server=db.internal;Uid=app;Password=${DB_PASSWORD};',
  ],
  [
    'JDBC query password',
    'src/Db.java',
    'String url = "jdbc:mysql://db.internal:3306/app?user=app&password=«P»";',
    'String url = "jdbc:mysql://db.internal:3306/app?user=app&useSSL=true";',
  ],
  [
    'net use',
    'scripts/map.bat',
    'net use Z: \\\\files.internal\\builds /user:CORP\\builder «P»',
    'net use Z: \\\\files.internal\\builds /user:CORP\\builder %BUILD_PASSWORD%',
  ],
  [
    'PsExec -p',
    'scripts/remote.bat',
    'psexec \\\\app01 -u admin -p «P» cmd',
    'psexec \\\\app01 -u admin -p %ADMIN_PW% cmd',
  ],
  [
    'Gradle credentials block',
    'build.gradle',
    "credentials {\n  username 'deploy'\n  password '«P»'\n}",
    "credentials {\n  username 'deploy'\n  password findProperty('nexusPassword')\n}",
  ],
  ['gradle.properties', 'gradle.properties', 'nexusPassword=«P»', 'org.gradle.jvmargs=-Xmx2g'],
  [
    'Maven settings.xml',
    'settings.xml',
    '<server><id>nexus</id><username>deploy</username><password>«P»</password></server>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference under test
    '<server><id>nexus</id><username>deploy</username><password>${env.NEXUS_PASSWORD}</password></server>',
  ],
  ['.pgpass', '.pgpass', 'db.internal:5432:app:app:«P»', 'db.internal:5432:app:app:*'],
  ['.my.cnf', '.my.cnf', '[client]\nuser=app\npassword=«P»', '[client]\nuser=app\npassword='],
  ['_netrc', '_netrc', 'machine files.internal login deploy password «P»', 'machine files.internal login deploy'],
];

describe.each([
  ['names ending in Key or auth, and other credential names', KEY_NAMES],
  ['a name and its value in separate fields', SPLIT_FIELDS],
  ['C-family and compiled-language literals', COMPILED_LITERALS],
  ['connection strings and tools', CONNECTIONS_AND_TOOLS],
])('%s', (_group, syntaxes) => {
  test.each(syntaxes)('%s: the secret is found once', (_name, path, text) => {
    const found = findings(`${render(text)}\n`, path);
    expect(found).toHaveLength(1);
    expect(found[0]!.endsWith(` ${expected(text)}`)).toBe(true);
  });
  test.each(syntaxes)('%s: the same name with no secret is no finding', (_name, path, _text, negative) => {
    expect(findings(`${render(negative)}\n`, path)).toEqual([]);
  });
});

describe('names ending in Key that key something else', () => {
  test.each([
    'primaryKey',
    'foreignKey',
    'sortKey',
    'cacheKey',
    'partitionKey',
    'queryKey',
    'i18nKey',
    'translationKey',
    'ctrlKey',
    'hotKey',
    'rowKey',
    'storageKey',
    'PARTITION_KEY',
    'idempotency_key',
    'key',
    'data_key',
    'envKey',
    'config.settings.headerKey',
    'stripe_cache_key',
  ])('%s is not a credential name', (name) => {
    expect(isCredentialKeyName(name)).toBe(false);
    expect(findings(`const ${name} = "${token}";\n`, 'src/store.ts')).toEqual([]);
  });

  test.each([
    'stripeKey',
    'clientKey',
    'LICENSE_KEY',
    'mapbox-key',
    'webhookKey2',
    'process.env.CLIENT_KEY',
    'config.stripe_key',
    'proxy_auth',
    '_auth',
    'auth',
  ])('%s is a credential name', (name) => {
    expect(isCredentialKeyName(name)).toBe(true);
  });

  test('words that only end in key are not names ending in Key (monkey, keyboard, turkey)', () => {
    for (const name of ['monkey', 'keyboard', 'turkey', 'whiskey', 'hockey']) {
      expect(findings(`const ${name} = "${token}";\n`, 'src/zoo.ts')).toEqual([]);
    }
  });

  test('a key name value must have key length and both letters and digits', () => {
    expect(findings('const stripeKey = "abcdefghABCDEFGHxyz";\n', 'src/pay.ts')).toEqual([]);
    expect(findings('const stripeKey = "a1b2c3d4";\n', 'src/pay.ts')).toEqual([]);
  });

  test.each([
    ['a paginator field', 'apis/ec2.paginators.json', '"result_key": "Ipv6CidrAssociations"'],
    ['a header name', 'lib/services/s3.js', "SSECustomerKey: 'x-amz-server-side-encryption-customer-key-MD5',"],
    ['an acronym before words', 'src/api.ts', 'const serverKey = "HTTPServerConfigV2Options";'],
  ])('a value spelled in words is a name, not a key: %s', (_name, path, text) => {
    expect(findings(`${text}\n`, path)).toEqual([]);
  });

  test('a key with words inside its random letters is still a key', () => {
    for (const key of [
      'sk9Tq2RandomXv8Lw3PwZk7Hn4Jd',
      'a8f3Kd92LmQx7Vb4Np1Zr6Ty3Wc5',
      'Xk3mPq8zRt5vLw2nBy7cJd4fGh6s',
    ]) {
      expect(findings(`const stripeKey = "${key}";\n`, 'src/pay.ts')).toEqual([`generic-secret-key-name ${key}`]);
    }
  });
});

describe('values that name, format or point at a credential are no findings', () => {
  test.each([
    ['identifier with a counter', 'config.json', '{"api_key": "cfg_access_key_2"}'],
    ['constant-style reference', '.env', 'SECRET=SECRET_REF_3'],
    ['snake-case name', 'values.yaml', 'secret: my_secret_name'],
    ['camelCase name with a digit', 'src/config.ts', 'const stripeKey = "stripeLiveKey2";'],
    ['Python format string', 'app/db.py', 'password = "pw{}".format(value)'],
    ['Python %(name)s', 'app/db.py', 'password = "%(name)s"'],
    ['placeholder sentence in JSON', 'config.json', '{"DB_PASSWORD": "set=it=here"}'],
    ['placeholder sentence in XML', 'app.config.xml', '<DB_PASSWORD>set=it=here</DB_PASSWORD>'],
    ['placeholder sentence in YAML', 'config/app.yaml', 'DB_PASSWORD: set=it=here'],
    ['placeholder sentence as a split field', 'settings.json', '{"name": "DB_PASSWORD", "value": "set=it=here"}'],
    ['MIME type', 'mime.types', 'xpw=application/vnd.ms-works'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the reference under test
    ['${VAR} reference', 'config/app.yaml', 'password: ${VAR}'],
    ['{{ var }} template', 'config/app.yaml', 'password: "{{ var }}"'],
    [
      '{{ var }} as a split field',
      'k8s/deployment.yaml',
      'env:\n  - name: API_TOKEN\n    value: "{{ .Values.token }}"',
    ],
  ])('%s', (_name, path, text) => {
    expect(findings(`${text}\n`, path)).toEqual([]);
  });

  test('a hand-typed value is still judged by its shape, not dropped as a placeholder', () => {
    // Letters typed in the rows of a keyboard look made up, yet have a password's shape: found.
    expect(findings('DB_PASSWORD=qwe7Rty!uiop\n', '.env')).toEqual(['generic-password qwe7Rty!uiop']);
    expect(findings('{"name": "DB_PASSWORD", "value": "qwe7Rty!uiop"}\n', 'settings.json')).toEqual([
      'generic-password-split-field qwe7Rty!uiop',
    ]);
  });
});
