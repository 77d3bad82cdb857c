import { judgeStatementPassword } from '../generic-value.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples } from '../sample-tokens.js';

/**
 * PowerShell turns a literal into a credential with `ConvertTo-SecureString "…" -AsPlainText -Force`; the literal is
 * the password. Variables (`$env:PW`, `$pw`) and sub-expressions are references and never match.
 */

const VALUE =
  '(?:\\\\?"(?<secretQuoted>[^"\\\\\\r\\n]{1,200})\\\\?"|\'(?<secretSingle>[^\'\\r\\n]{1,200})\'|(?<secretBare>[^\\s"\'$(`|;-][^\\s"\'`|;]{0,199}))';

export default defineRules([
  {
    id: 'powershell-secure-string-password',
    title: 'Password in ConvertTo-SecureString',
    severity: 'high',
    keywords: ['convertto-securestring'],
    pattern: new RegExp(`ConvertTo-SecureString(?:[ \\t]+-(?:String|Force|AsPlainText)\\b){0,3}[ \\t]+${VALUE}`, 'i'),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('pwsh-1'), fakeToken('', 16, undefined, 'pwsh-2')],
      ignore: ['$env:ADMIN_PASSWORD', '$(Get-Secret admin)', 'changeme', '<password>', '********'],
      contexts: [
        {
          name: 'script',
          path: 'deploy/setup.ps1',
          render: (v) => `$pw = ConvertTo-SecureString "${v}" -AsPlainText -Force\n`,
        },
        {
          name: '-String',
          path: 'deploy/Users.psm1',
          render: (v) => `$secure = ConvertTo-SecureString -String '${v}' -AsPlainText -Force\n`,
        },
        {
          name: 'in YAML',
          path: '.github/workflows/win.yml',
          render: (v) => `    - run: |\n        $p = ConvertTo-SecureString -AsPlainText -Force -String "${v}"\n`,
        },
        {
          name: 'escaped in JSON',
          path: 'tasks.json',
          render: (v) => `{ "command": "ConvertTo-SecureString \\"${v}\\" -AsPlainText -Force" }\n`,
        },
      ],
    })),
  },
]);
