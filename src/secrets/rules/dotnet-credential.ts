import { judgeStatementPassword } from '../generic-value.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

/**
 * .NET's credential constructors, from C# and from PowerShell (`New-Object System.Net.NetworkCredential(…)`): the
 * password is an argument in a fixed place, with no name beside it. `NetworkCredential(user, password[, domain])`,
 * `DirectoryEntry(path, user, password)`.
 */
const STRING = '"[^"\\r\\n]{0,200}"';

export default defineRules([
  {
    id: 'dotnet-credential-constructor-password',
    title: 'Password in a .NET credential constructor (NetworkCredential, DirectoryEntry)',
    severity: 'high',
    keywords: ['NetworkCredential', 'DirectoryEntry'],
    gate: /[ \t]*\(/,
    pattern: new RegExp(
      `(?:NetworkCredential[ \\t]*\\([ \\t]*${STRING}|DirectoryEntry[ \\t]*\\([ \\t]*${STRING}[ \\t]*,[ \\t]*${STRING})` +
        '[ \\t]*,[ \\t]*"(?<secretQuoted>[^"\\r\\n]{1,200})"',
    ),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('dotnet-1'), fakeToken('', 24, URL_SAFE, 'dotnet-2')],
      ignore: ['changeme', '<password>', '********', 'password'],
      contexts: [
        {
          name: 'C# NetworkCredential',
          path: 'src/Mailer.cs',
          render: (v) => `client.Credentials = new NetworkCredential("builds@acme.dev", "${v}");\n`,
        },
        {
          name: 'PowerShell NetworkCredential',
          path: 'scripts/fetch.ps1',
          render: (v) => `$wc.Credentials = New-Object System.Net.NetworkCredential("ci", "${v}")\n`,
        },
        {
          name: 'C# DirectoryEntry',
          path: 'src/Ldap.cs',
          render: (v) => `var entry = new DirectoryEntry("LDAP://dc1.corp", "corp\\\\svc-ldap", "${v}");\n`,
        },
      ],
    })),
  },
]);
