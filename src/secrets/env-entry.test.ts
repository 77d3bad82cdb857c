import { describe, expect, test } from 'vitest';
import { gateCheckOf } from './gate-checks.js';
import { builtinRules } from './rules/index.js';
import { fakeHumanPassword, fakeToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

/**
 * A container env entry (Kubernetes `env:`, ECS, compose-style lists) read in either order within one list item: its
 * `name:` line then its `value:` line, or its value first. Real-looking values are found once, under the env-entry
 * rules; placeholders, references, identifiers and pairs that are not one item's are not.
 */

const scanner = new SecretScanner(builtinRules);
const findings = (text: string, path = 'k8s/deployment.yaml') =>
  scanner.scanText(text, { path }).map((item) => `${item.rule.id} ${item.secret}`);

const password = fakeHumanPassword('env-entry');
const token = fakeToken('', 32, undefined, 'env-entry');

describe('an env entry, value first', () => {
  test.each([
    ['name first (as before)', `env:\n  - name: DB_PASSWORD\n    value: "${password}"\n`],
    ['value first', `env:\n  - value: "${password}"\n    name: DB_PASSWORD\n`],
    ['value first, single quotes', `env:\n  - value: '${password}'\n    name: DB_PASSWORD\n`],
    ['value first, bare', `env:\n  - value: ${password}\n    name: DB_PASSWORD\n`],
    [
      'value first, between other items',
      `env:\n- name: A\n  value: b\n- value: "${password}"\n  name: DB_PASSWORD\n- name: C\n  value: d\n`,
    ],
    [
      'value first, wide indentation',
      `      env:\n        -   value: "${password}"\n            name: "DB_PASSWORD"\n`,
    ],
    [
      'value first, a continuation line of the item',
      `env:\n  - image: db\n    value: "${password}"\n    name: DB_PASSWORD\n`,
    ],
    ['value first, CRLF', `env:\r\n  - value: "${password}"\r\n    name: DB_PASSWORD\r\n`],
    ['flow mapping, name first', `env:\n  - {name: DB_PASSWORD, value: "${password}"}\n`],
    ['flow mapping, name first, bare value', `env:\n  - {name: DB_PASSWORD, value: ${password}}\n`],
    ['flow mapping, name first, more fields', `env:\n  - { name: DB_PASSWORD, value: ${password}, x: 1 }\n`],
    ['flow mapping, value first', `env:\n  - {value: "${password}", name: DB_PASSWORD}\n`],
    ['flow mapping, bare value first', `env:\n  - { value: ${password}, name: DB_PASSWORD }\n`],
    ['JSON in YAML, value first', `env: [{"value": "${password}", "name": "DB_PASSWORD"}]\n`],
  ])('%s', (_name, text) => {
    expect(findings(text)).toEqual([`generic-password-k8s-env ${password}`]);
  });

  test('a token-named entry, and the value-first JSON of an ECS task definition', () => {
    expect(findings(`env:\n  - value: ${token}\n    name: API_TOKEN\n`)).toEqual([`generic-secret-k8s-env ${token}`]);
    const json = `{"environment": [\n  {\n    "value": "${token}",\n    "name": "API_TOKEN"\n  }\n]}\n`;
    expect(findings(json, 'task-definition.json')).toEqual([`generic-secret-k8s-env ${token}`]);
  });

  test('name-first JSON stays the split-field rule’s', () => {
    expect(findings(`env: [{"name": "DB_PASSWORD", "value": "${password}"}]\n`)).toEqual([
      `generic-password-split-field ${password}`,
    ]);
  });

  test('in code, a bare value is an expression in either order; a quoted one is a literal', () => {
    expect(findings(`const env = \`\n  - value: ${password}\n    name: DB_PASSWORD\n\`;\n`, 'src/deploy.ts')).toEqual(
      [],
    );
    expect(findings(`env: [{ value: "${password}", name: "DB_PASSWORD" }],\n`, 'src/stack.ts')).toEqual([
      `generic-password-k8s-env ${password}`,
    ]);
    expect(findings(`env: [{ name: 'DB_PASSWORD', value: '${password}' }],\n`, 'src/stack.ts')).toEqual([
      `generic-password-k8s-env ${password}`,
    ]);
    expect(findings('env: [{ name: "DB_PASSWORD", value: config.dbPassword }],\n', 'src/stack.ts')).toEqual([]);
    expect(findings('env: [{ value: dbPassword, name: "DB_PASSWORD" }],\n', 'src/stack.ts')).toEqual([]);
  });
});

describe('what an env entry written value first does not hold', () => {
  test.each([
    ['a placeholder', 'env:\n  - value: changeme\n    name: DB_PASSWORD\n'],
    ['a placeholder in angle brackets', 'env:\n  - value: "<password>"\n    name: DB_PASSWORD\n'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference under test
    ['a ${VAR} reference', 'env:\n  - value: "${DB_PASSWORD}"\n    name: DB_PASSWORD\n'],
    ['a Helm template', 'env:\n  - value: "{{ .Values.db.password }}"\n    name: DB_PASSWORD\n'],
    ['a Helm template, bare', 'env:\n  - value: {{ .Values.db.password }}\n    name: DB_PASSWORD\n'],
    ['an identifier', 'env:\n  - value: cfg_access_key_2\n    name: API_TOKEN\n'],
    ['a constant name', 'env:\n  - value: SECRET_REF_3\n    name: API_TOKEN\n'],
    [
      'a Secret reference',
      'env:\n  - valueFrom:\n      secretKeyRef: {name: db, key: password}\n    name: DB_PASSWORD\n',
    ],
    ['a file path', 'env:\n  - value: /run/secrets/db_password\n    name: DB_PASSWORD_FILE\n'],
    ['a name that is not a credential', `env:\n  - value: "${password}"\n    name: LOG_LEVEL\n`],
    [
      'the value of the item before',
      `env:\n  - value: "${password}"\n  - name: DB_PASSWORD\n    valueFrom: {secretKeyRef: {name: db, key: pw}}\n`,
    ],
    ['a value deeper than the name', `env:\n  - config:\n      value: "${password}"\n    name: DB_PASSWORD\n`],
    ['a value shallower than the name', `settings:\n  value: "${password}"\n    name: DB_PASSWORD\n`],
    ['a comment after the value', `env:\n  - value: "${password}" # rotated\n    name: DB_PASSWORD\n`],
    ['a flow mapping, name first, placeholder', 'env:\n  - {name: DB_PASSWORD, value: changeme}\n'],
    ['a flow mapping, name first, template', 'env:\n  - {name: API_TOKEN, value: "{{ .Values.token }}"}\n'],
    [
      'a flow mapping, name first, Secret reference',
      'env:\n  - {name: DB_PASSWORD, valueFrom: {secretKeyRef: {name: db, key: pw}}}\n',
    ],
    ['a flow mapping, value first, placeholder', 'env:\n  - {value: "<your-password>", name: DB_PASSWORD}\n'],
    ['JSON in YAML, value first, template', 'env: [{"value": "{{ .Values.token }}", "name": "API_TOKEN"}]\n'],
  ])('%s', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });

  test('a line ending in a credential word opens no env-entry window unless a name key holds it', () => {
    const check = gateCheckOf(builtinRules.find((rule) => rule.id === 'generic-password-k8s-env')!.gate)!;
    const opens = (text: string, word = 'PASSWORD') => check(text, text.lastIndexOf(word) + word.length);
    expect(opens('# enter the PASSWORD\n')).toBe(false);
    expect(opens('username = PASSWORD\n')).toBe(false);
    expect(opens('  value: DB_PASSWORD\n')).toBe(false);
    expect(opens('  - name: DB_PASSWORD\n')).toBe(true);
    expect(opens('  - name:DB_PASSWORD\n')).toBe(true);
    expect(opens("    name: 'DB_PASSWORD'\n")).toBe(true);
    expect(opens('  - {value: x, "name" : "DB_PASSWORD"}')).toBe(true);
    // The pattern's `name:` has no word start of its own, nor does the look back.
    expect(opens('  hostname: db-PASSWORD\n')).toBe(true);
    // A name with a blank (`secret key`), and a look back too long to read (the regex decides).
    expect(opens('  name: app secret key\n', 'key')).toBe(true);
    expect(opens(`${'a '.repeat(100)}PASSWORD\n`)).toBe(true);
  });
});

describe('an env entry with other lines of its item between name and value', () => {
  test.each([
    [
      'a comment between, name first',
      `env:\n  - name: DB_PASSWORD\n    # rotated by hand, see runbook\n    value: "${password}"\n`,
    ],
    [
      'another key between, name first',
      `env:\n  - name: DB_PASSWORD\n    description: the db\n    value: ${password}\n`,
    ],
    [
      'a blank line, a deeper line and a comment at any indentation',
      `env:\n- name: DB_PASSWORD\n\n  description: >\n    the db\n# note\n  value: '${password}'\n`,
    ],
    [
      'a continuation line of the item',
      `env:\n  - image: db\n    name: DB_PASSWORD\n    type: x\n    value: "${password}"\n`,
    ],
    ['value first, a key between', `env:\n  - value: "${password}"\n    image: db\n    name: DB_PASSWORD\n`],
    ['value first, a comment between', `env:\n  - value: ${password}\n    # see runbook\n    name: DB_PASSWORD\n`],
    [
      'six lines between',
      `env:\n  - name: DB_PASSWORD\n    a: 1\n    b: 2\n    # c\n\n    d:\n      e: 3\n    value: "${password}"\n`,
    ],
    [
      'a nested list between, name first',
      `env:\n  - name: DB_PASSWORD\n    args:\n      - --flag\n    value: "${password}"\n`,
    ],
    ['CRLF', `env:\r\n  - name: DB_PASSWORD\r\n    # c\r\n    value: "${password}"\r\n`],
    [
      'docker-compose environment list',
      `services:\n  app:\n    environment:\n      - name: DB_PASSWORD\n        # set by hand\n        value: "${password}"\n`,
    ],
    ['flow mapping, name first', `env:\n  - {name: DB_PASSWORD, description: the db, value: "${password}"}\n`],
    ['flow mapping, value first', `env:\n  - {value: "${password}", description: x, name: DB_PASSWORD}\n`],
    ['JSON in YAML, value first', `env: [{"value": "${password}", "type": "plain", "name": "DB_PASSWORD"}]\n`],
  ])('%s', (_name, text) => {
    expect(findings(text)).toEqual([`generic-password-k8s-env ${password}`]);
  });

  test('the issue’s two items, each value with its own name', () => {
    const text = `env:\n  - name: DB_PASSWORD\n    # rotated by hand, see runbook\n    value: "${password}"\n  - name: API_TOKEN\n    description: upstream token\n    value: ${token}\n`;
    expect(findings(text)).toEqual([`generic-password-k8s-env ${password}`, `generic-secret-k8s-env ${token}`]);
  });

  test('a multi-line ECS task definition, value first with a field between', () => {
    const json = `{"environment": [\n  {\n    "value": "${token}",\n    "description": "x",\n    "name": "API_TOKEN"\n  }\n]}\n`;
    expect(findings(json, 'task-definition.json')).toEqual([`generic-secret-k8s-env ${token}`]);
  });

  test.each([
    [
      'the next item’s value, name first',
      `env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: db, key: pw}\n  - name: LOG_LEVEL\n    value: "${password}"\n`,
    ],
    [
      'the next item’s value, on the next line',
      `env:\n  - name: DB_PASSWORD\n  - value: "${password}"\n    name: LOG\n`,
    ],
    [
      'the next item’s value, its first line',
      `env:\n  - name: DB_PASSWORD\n    description: x\n  - value: "${password}"\n    name: LOG_LEVEL\n`,
    ],
    [
      'the item before’s value, value first',
      `env:\n  - name: LOG_LEVEL\n    value: "${password}"\n  - image: db\n    name: DB_PASSWORD\n`,
    ],
    ['a dedent between', `a:\n  - name: DB_PASSWORD\n    x: 1\nb:\n    value: "${password}"\n`],
    ['a value deeper than the name', `env:\n  - name: DB_PASSWORD\n    config:\n      value: "${password}"\n`],
    [
      'another pair’s name between',
      `env:\n  - value: "${password}"\n    name: LOG_LEVEL\n    x: 1\n    name: DB_PASSWORD\n`,
    ],
    [
      'seven lines between',
      `env:\n  - name: DB_PASSWORD\n    a: 1\n    b: 2\n    c: 3\n    d: 4\n    e: 5\n    f: 6\n    g: 7\n    value: "${password}"\n`,
    ],
    [
      'a Helm template',
      'env:\n  - name: DB_PASSWORD\n    # from values\n    value: {{ .Values.db.password | quote }}\n',
    ],
    ['a quoted Helm template', 'env:\n  - name: API_TOKEN\n    description: x\n    value: "{{ .Values.token }}"\n'],
    ['a Helm template, value first', 'env:\n  - value: {{ .Values.db.password }}\n    # x\n    name: DB_PASSWORD\n'],
    ['a placeholder', 'env:\n  - name: DB_PASSWORD\n    # c\n    value: changeme\n'],
    [
      'a flow mapping, the next object’s value',
      `env: [{name: DB_PASSWORD, x: 1}, {name: LOG, value: "${password}"}]\n`,
    ],
    [
      'JSON, the next object’s value',
      `env: [{"name": "LOG", "value": "${password}"}, {"type": "x", "name": "DB_PASSWORD"}]\n`,
    ],
  ])('not %s', (_name, text) => {
    expect(findings(text).filter((line) => line.includes('k8s-env'))).toEqual([]);
  });
});
