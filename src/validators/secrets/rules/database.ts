import { GATES } from '../generic-value.js';
import { defineRules, type SecretRule } from '../rule.js';
import { fakeHumanPassword, fakeToken } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';

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
    samples: {
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
    },
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
    samples: {
      match: [
        `jdbc:postgresql://db.internal:5432/app?user=app&password=${encodeURIComponent(fakeHumanPassword())}`,
        `jdbc:oracle:thin:scott/${encodeURIComponent(fakeHumanPassword())}@db.internal:1521/ORCL`,
      ],
      ignore: [
        `jdbc:postgresql://db.internal:5432/app?user=app&password=\${DB_PASSWORD}`,
        'jdbc:mysql://localhost/app',
      ],
    },
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
    samples: {
      match: [`Server=sql.internal;Database=app;User Id=app;Password=${fakeHumanPassword()};`],
      ignore: [
        `Server=sql.internal;Database=app;User Id=app;Password=\${SQL_PASSWORD};`,
        'Server=.;Integrated Security=true;Password=;',
      ],
    },
  },
  {
    id: 'database-redis-requirepass',
    title: 'Redis server password (requirepass)',
    severity: 'high',
    keywords: ['requirepass'],
    pattern: /^[ \t]*requirepass[ \t]+["']?([^\s"']{1,200})/m,
    validate: isUsablePassword,
    samples: {
      match: [fakeToken('', 24)],
      ignore: ['foobared', `\${REDIS_PASSWORD}`],
      contexts: [{ name: 'redis.conf', path: 'config/redis.conf', render: (v) => `bind 0.0.0.0\nrequirepass ${v}\n` }],
    },
  },
]);
