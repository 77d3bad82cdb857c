import { GATES } from '../generic-gates.js';
import { judgeStatementPassword } from '../generic-value.js';
import { defineRules, type SecretRule } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';

/** One `.pgpass` field: anything but `:` and whitespace, with `\:` and `\\` escapes. */
const PGPASS_FIELD = '(?:[^:\\s\\\\]|\\\\.)';

/**
 * The MySQL / MariaDB clients take the password glued to `-p` (`-pS3cret`, `-p'S3cret'`) or as `--password=…`.
 * `-p` alone prompts, `-P` is the port; both are left alone by the case-sensitive `-p` followed by a non-space.
 */
const MYSQL_VALUE =
  '(?:\'(?<secretSingle>[^\'\\r\\n]{1,200})\'|"(?<secretQuoted>[^"\\r\\n]{1,200})"|(?<secretBare>[^\\s\'"`;|&<>]{1,200}))';
const MYSQL_CLIENT = '(?:mysql(?:dump|admin|import|check|sh|pump)?|mariadb(?:-dump|-admin|-import|-check)?)';

/** A SQL password literal: quoted, double-quoted or bare (`IDENTIFIED BY S3cret;`). */
const SQL_VALUE =
  '(?:\'(?<secretSingle>[^\'\\r\\n]{1,200})\'|"(?<secretQuoted>[^"\\r\\n]{1,200})"|(?<secretBare>[^\\s\'"`;\\\\()]{1,200}))';

/** `IDENTIFIED [WITH plugin] BY`. */
const IDENTIFIED_BY = 'identified(?:[ \\t]+with[ \\t]+[\'"`]?\\w{1,40}[\'"`]?)?[ \\t]+by';
/** A quoted SQL literal only: outside a CREATE/ALTER statement a bare word after `identified by` is prose. */
const sqlQuoted = (suffix: string) =>
  `(?:'(?<secretSingle${suffix}>[^'\\r\\n]{1,200})'|"(?<secretQuoted${suffix}>[^"\\r\\n]{1,200})")`;

function dsn(schemes: string[], id: string, title: string, host: string): SecretRule {
  const scheme = schemes.map((s) => s.replace(/\+/g, '\\+')).join('|');
  return {
    id,
    title,
    severity: 'critical',
    keywords: schemes.map((s) => `${s}://`),
    gate: GATES.urlUser,
    pattern: new RegExp(
      `(?:${scheme})://[^\\s:/@'"\`<>]{0,100}:([^\\s@'"\`<>/]{1,200})@(?!(?:[\\w-]+\\.)*example\\.(?:com|org|net)\\b)[A-Za-z0-9\\[]`,
      'i',
    ),
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [
        `${schemes[0]}://app:${encodeURIComponent(fakeHumanPassword())}@${host}`,
        `${schemes[0]}://svc:${fakeToken('', 24)}@${host}`,
      ],
      ignore: [
        `${schemes[0]}://app:\${DB_PASSWORD}@${host}`,
        `${schemes[0]}://user:password@${host}`,
        `${schemes[0]}://app:<password>@${host}`,
        `${schemes[0]}://${host}`,
      ],
    })),
  };
}

export default defineRules([
  dsn(['postgres', 'postgresql'], 'database-postgres-url', 'PostgreSQL URL with password', 'db.internal:5432/app'),
  dsn(['mysql', 'mariadb', 'mysql2'], 'database-mysql-url', 'MySQL URL with password', 'mysql.internal:3306/app'),
  dsn(['mongodb', 'mongodb+srv'], 'database-mongodb-url', 'MongoDB URL with password', 'cluster0.mongo.internal/app'),
  dsn(['redis', 'rediss'], 'database-redis-url', 'Redis URL with password', 'cache.internal:6379/0'),
  dsn(['sqlserver', 'mssql'], 'database-mssql-url', 'SQL Server URL with password', 'sql.internal:1433'),
  dsn(
    ['cockroachdb', 'clickhouse', 'couchbase', 'neo4j', 'neo4j+s', 'bolt'],
    'database-other-url',
    'Database URL with password',
    'graph.internal:7687',
  ),
  {
    id: 'database-jdbc-password',
    title: 'JDBC URL with password',
    severity: 'critical',
    keywords: ['jdbc:'],
    pattern:
      /jdbc:[a-z0-9]{2,20}:(?:[^\s"'<>]{0,300}?[?&;:]password=(?<secret>[^&;\s"'<>]{1,100})|thin:[^\s"'<>/@:]{1,60}\/(?<secretThin>[^\s"'<>@]{1,100})@)/i,
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [
        `jdbc:postgresql://db.internal:5432/app?user=app&password=${encodeURIComponent(fakeHumanPassword())}`,
        `jdbc:oracle:thin:scott/${encodeURIComponent(fakeHumanPassword())}@db.internal:1521/ORCL`,
      ],
      ignore: [
        `jdbc:postgresql://db.internal:5432/app?user=app&password=\${DB_PASSWORD}`,
        'jdbc:mysql://localhost/app',
      ],
    })),
  },
  {
    id: 'database-connection-string-password',
    title: 'Connection string with password (Password=…;)',
    severity: 'critical',
    keywords: ['password=', 'pwd='],
    // ADO.NET / ODBC: `Server=…;User Id=…;Password=…;`. The name must follow a `;` so `password=` alone is not enough.
    pattern:
      /;[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?:"(?<secretQuoted>[^"\r\n]{1,100})"|(?<secretBare>[^;"'\s<>]{1,100}))/i,
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [`Server=sql.internal;Database=app;User Id=app;Password=${fakeHumanPassword()};`],
      ignore: [
        `Server=sql.internal;Database=app;User Id=app;Password=\${SQL_PASSWORD};`,
        'Server=.;Integrated Security=true;Password=;',
      ],
    })),
  },
  {
    id: 'database-redis-requirepass',
    title: 'Redis server password (requirepass)',
    severity: 'high',
    keywords: ['requirepass'],
    pattern: /^[ \t]*requirepass[ \t]+["']?([^\s"']{1,200})/m,
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [fakeToken('', 24)],
      ignore: ['foobared', `\${REDIS_PASSWORD}`],
      contexts: [{ name: 'redis.conf', path: 'config/redis.conf', render: (v) => `bind 0.0.0.0\nrequirepass ${v}\n` }],
    })),
  },
  {
    id: 'database-pgpass-password',
    title: 'PostgreSQL password file entry (.pgpass)',
    severity: 'critical',
    keywords: [':'],
    onlyPaths: /(?:^|\/)(?:\.pgpass|pgpass\.conf)$/,
    // `host:port:database:user:password`; the password is the rest of the line (it may hold escaped colons).
    pattern: new RegExp(
      `^[ \\t]*(?!#)${PGPASS_FIELD}{1,253}:(?:\\d{1,5}|\\*):${PGPASS_FIELD}{1,100}:${PGPASS_FIELD}{1,100}:(?<secret>[^\\s]{1,200})[ \\t]*\\r?$`,
      'm',
    ),
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [fakeToken('', 20, undefined, 'pgpass-1'), fakeHumanPassword('pgpass-2')],
      ignore: ['*', `\${PGPASSWORD}`, 'changeme'],
      contexts: [
        { name: '.pgpass', path: '.pgpass', render: (v) => `# read-write\ndb.internal:5432:orders:orders:${v}\n` },
        { name: 'pgpass.conf', path: 'config/pgpass.conf', render: (v) => `*:*:*:replicator:${v}\n` },
      ],
    })),
  },
  {
    id: 'database-sql-password',
    title: "Password in a SQL statement (IDENTIFIED BY '…', WITH PASSWORD '…')",
    severity: 'critical',
    keywords: ['identified', 'password'],
    // In a `CREATE|ALTER USER|ROLE|LOGIN` statement: MySQL/Oracle `IDENTIFIED [WITH plugin] BY`, PostgreSQL/SQL Server
    // `PASSWORD [=]`, quoted or bare (`PASSWORD EXPIRE` and friends are bare words the validator turns down). Elsewhere
    // only quoted: `GRANT … IDENTIFIED BY '…'`, MySQL's `PASSWORD('…')` function.
    pattern: new RegExp(
      `\\b(?:create|alter)[ \\t]+(?:user|role|login)\\b[^;\\r\\n]{0,160}?[ \\t](?:${IDENTIFIED_BY}|password[ \\t]*=?)[ \\t]*${SQL_VALUE}|\\b${IDENTIFIED_BY}[ \\t]*${sqlQuoted('By')}|\\bpassword[ \\t]?\\([ \\t]?${sqlQuoted('Fn')}`,
      'i',
    ),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('sql-1'), fakeToken('', 18, undefined, 'sql-2')],
      ignore: [`\${DB_PASSWORD}`, '$APP_USER_PASS', '<enter password>', 'changeme', `*${'9F2A'.repeat(10)}`],
      contexts: [
        {
          name: 'MySQL IDENTIFIED BY',
          path: 'db/init.sql',
          render: (v) => `CREATE USER 'app'@'%' IDENTIFIED BY '${v}';\nGRANT ALL ON app.* TO 'app'@'%';\n`,
        },
        {
          name: 'MySQL plugin',
          path: 'db/users.sql',
          render: (v) => `ALTER USER 'app'@'localhost' IDENTIFIED WITH caching_sha2_password BY '${v}';\n`,
        },
        {
          name: 'PostgreSQL role in Python',
          path: 'migrations/0001_roles.py',
          render: (v) => `cursor.execute("CREATE ROLE reporter WITH LOGIN PASSWORD '${v}' NOSUPERUSER")\n`,
        },
        {
          name: 'SQL Server login',
          path: 'db/logins.sql',
          render: (v) => `CREATE LOGIN reporting WITH PASSWORD = '${v}';\n`,
        },
        {
          name: 'psql in a shell script',
          path: 'scripts/bootstrap.sh',
          render: (v) => `psql -c "ALTER USER app WITH ENCRYPTED PASSWORD '${v}';"\n`,
        },
        {
          name: 'MySQL PASSWORD()',
          path: 'db/legacy.sql',
          render: (v) => `SET PASSWORD FOR 'app'@'localhost' = PASSWORD('${v}');\n`,
        },
      ],
    })),
  },
  {
    id: 'database-mysql-cli-password',
    title: 'MySQL password on a command line (-p…, --password=…)',
    severity: 'critical',
    keywords: ['mysql', 'mariadb'],
    gate: /[a-z-]{0,8}[ \t]/,
    pattern: new RegExp(
      `(?<![\\w.-])${MYSQL_CLIENT}[ \\t](?:[^\\r\\n|;&<>]{0,200}?[ \\t])?(?:-p|--password=|--password[ \\t]+)${MYSQL_VALUE}`,
    ),
    validate: isUsablePassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('mysql-cli-1'), fakeToken('', 16, undefined, 'mysql-cli-2')],
      ignore: [`\${MYSQL_PASSWORD}`, '$MYSQL_PWD', 'root'],
      contexts: [
        {
          name: 'quoted -p',
          path: 'scripts/restore.sh',
          render: (v) => `#!/bin/sh\nmysql -h db.internal -u app -p'${v}' orders < dump.sql\n`,
        },
        { name: 'glued -p', path: 'scripts/backup.sh', render: (v) => `mysqldump -uroot -p${v} orders > orders.sql\n` },
        {
          name: '--password=',
          path: 'Makefile',
          render: (v) => `migrate:\n\tmariadb --user=app --password=${v} app < schema.sql\n`,
        },
        {
          name: 'Dockerfile RUN',
          path: 'Dockerfile',
          render: (v) => `FROM mysql:8\nRUN mysqladmin -u root -p"${v}" create orders\n`,
        },
      ],
    })),
  },
]);
