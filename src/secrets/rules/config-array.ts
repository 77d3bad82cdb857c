import { type GenericKind, judgeGenericValue, PASSWORD_NAME, SECRET_NAME } from '../generic-value.js';
import { nameGate } from '../name-gate.js';
import { defineRules, type MatchContext, type SampleContext, type SecretRule } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

/**
 * A secret assigned to a named entry of a config array or map: PHP `$config['api_key'] = '…'`,
 * `$this->settings['db_password'] = '…'`, Flask `app.config['SECRET_KEY'] = '…'`, Ruby `ENV['API_TOKEN'] ||= '…'`,
 * JS `headers['X-Api-Key'] = '…'`. The name is a quoted subscript, so the plain assignment rule does not see it.
 * Judged like a generic assignment (placeholders, references and dummies are not findings).
 */

const entry = (core: string) =>
  new RegExp(
    `[A-Za-z_$@][\\w$.>-]{0,60}(?:\\[[ \\t]*["'][\\w.-]{1,60}["'][ \\t]*\\]){0,3}\\[[ \\t]*["'](?<name>[A-Za-z0-9_.-]{0,40}?${core}[A-Za-z0-9_.-]{0,30})["'][ \\t]*\\][ \\t]*(?:\\|\\|=|\\?\\?=|=)(?!=)[ \\t]*(?:"(?<secretQuoted>[^"\\r\\n]{1,200})"|'(?<secretSingle>[^'\\r\\n]{1,200})')`,
    'i',
  );

/** After the keyword: the rest of the subscript name, its closing quote and bracket. */
const GATE = nameGate({ run: 30, at: 'separator', chars: ']' }, String.raw`["'][ \t]*\]`);

const judge = (kind: GenericKind) => (value: string, context: MatchContext) =>
  judgeGenericValue(kind, value, { ...context, syntax: 'code' });

const contexts = (name: string): SampleContext[] => [
  {
    name: 'PHP config array',
    path: 'application/config/config.php',
    render: (v) => `<?php\n$config['${name}'] = '${v}';\n`,
  },
  {
    name: 'PHP property array',
    path: 'src/Settings.php',
    render: (v) => `<?php\n$this->settings['db']['${name}'] = "${v}";\n`,
  },
  {
    name: 'Flask config',
    path: 'app/__init__.py',
    render: (v) => `app = Flask(__name__)\napp.config['${name}'] = '${v}'\n`,
  },
  { name: 'Ruby hash', path: 'config/initializers/app.rb', render: (v) => `ENV["${name}"] ||= "${v}"\n` },
  { name: 'JS object', path: 'src/client.js', render: (v) => `headers['${name}'] = '${v}';\n` },
];

const ignores = ['changeme', `\${DB_PASSWORD}`, 'your-secret-here', '<secret>', '********', 'secret123', ''];

function rule(
  kind: GenericKind,
  spec: Pick<SecretRule, 'id' | 'title'> & { name: string; match: () => string[] },
): SecretRule {
  return {
    id: spec.id,
    title: spec.title,
    severity: kind === 'password' ? 'high' : 'medium',
    keywords:
      kind === 'password' ? ['pass', 'pw', 'psw', 'pssw', 'pasw'] : ['secret', 'token', 'key', 'credential', 'auth'],
    gate: GATE,
    generic: true,
    pattern: entry(kind === 'password' ? PASSWORD_NAME : SECRET_NAME),
    validate: judge(kind),
    samples: lazySamples(() => ({ match: spec.match(), ignore: ignores, contexts: contexts(spec.name) })),
  };
}

export default defineRules([
  rule('password', {
    id: 'config-array-password',
    title: "Password in a config array or map entry ($config['db_password'] = …)",
    name: 'db_password',
    match: () => [fakeHumanPassword('config-array-1'), fakeToken('', 16, URL_SAFE, 'config-array-2')],
  }),
  rule('secret', {
    id: 'config-array-secret',
    title: "Secret or key in a config array or map entry ($config['api_key'] = …)",
    name: 'api_key',
    match: () => [fakeToken('', 32, undefined, 'config-array-3'), fakeToken('', 40, URL_SAFE, 'config-array-4')],
  }),
]);
