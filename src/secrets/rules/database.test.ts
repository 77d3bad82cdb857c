import { describe, expect, test } from 'vitest';
import { fakeHumanPassword, fakeToken } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';

const scanner = new SecretScanner(builtinRules);
const password = fakeHumanPassword('database-test');
const token = fakeToken('', 18, undefined, 'database-test-token');

function ruleIds(text: string, path: string): string[] {
  return scanner.scanText(text, { path }).map((found) => found.rule.id);
}

describe('database-mysql-cli-password', () => {
  test.each([
    [`mysql -u app -p'${password}' orders`],
    [`mysql -uapp -p${token} orders`],
    [`mysqldump --user=app --password=${token} orders > dump.sql`],
    [`mysql --password ${token} -h db.internal`],
    [`mariadb -h db.internal -p"${password}"`],
  ])('finds %s', (line) => {
    expect(ruleIds(`#!/bin/sh\n${line}\n`, 'scripts/db.sh')).toEqual(['database-mysql-cli-password']);
  });

  test.each([
    ['-p alone prompts', 'mysql -u app -p orders < dump.sql'],
    ['-P is the port', 'mysql -h db.internal -P 3306 -u app orders'],
    ['env reference', 'mysql -u app -p$MYSQL_PWD orders'],
    ['quoted env reference', `mysql -u app -p"\${MYSQL_PASSWORD}" orders`],
    ['not a mysql command', `pg_dump -p${token} orders`],
    ['mysql inside another word', `mymysql -p${token}`],
  ])('ignores %s', (_name, line) => {
    expect(ruleIds(`${line}\n`, 'scripts/db.sh')).toEqual([]);
  });
});

describe('database-pgpass-password', () => {
  test('finds every entry with a password, escaped colons included', () => {
    const text = `# comment:1:2:3:4\ndb.internal:5432:orders:orders:${token}\n*:*:*:replicator:${password}\\:x\n*:*:*:readonly:\n`;
    const found = scanner.scanText(text, { path: 'home/.pgpass' });
    expect(found.map((item) => [item.rule.id, item.line, item.secret])).toEqual([
      ['database-pgpass-password', 2, token],
      ['database-pgpass-password', 3, `${password}\\:x`],
    ]);
  });

  test('only in files named .pgpass or pgpass.conf', () => {
    expect(ruleIds(`db.internal:5432:orders:orders:${token}\n`, 'notes.txt')).toEqual([]);
  });
});
