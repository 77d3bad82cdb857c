import { judgeStatementPassword } from '../generic-value.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken } from '../sample-tokens.js';

/**
 * Command lines whose syntax, not a variable name, says which word is the password: `sshpass -p …` and Windows
 * `net use \\server\share PASSWORD /user:…`. `*` (prompt), variables and `-e`/`-f` (password from env or file) never match.
 */

/** A quoted or bare shell word; a bare one must not be another flag, a variable or a prompt marker. */
const WORD =
  '(?:\'(?<secretSingle>[^\'\\r\\n]{1,200})\'|"(?<secretQuoted>[^"\\r\\n]{1,200})"|(?<secretBare>[^\\s\'"`$%/*|;&<>-][^\\s\'"`|;&<>]{0,199}))';

export default defineRules([
  {
    id: 'shell-sshpass-password',
    title: 'Password on an sshpass command line (sshpass -p …)',
    severity: 'high',
    keywords: ['sshpass'],
    gate: /[ \t]/,
    pattern: new RegExp(`(?<![\\w.-])sshpass[ \\t]+(?:-[A-Za-oq-z][ \\t]+)?-p[ \\t]?${WORD}`),
    validate: judgeStatementPassword,
    samples: {
      match: [fakeHumanPassword('sshpass-1'), fakeToken('', 14, undefined, 'sshpass-2')],
      ignore: ['$SSH_PASS', `\${DEPLOY_PASSWORD}`, 'changeme', '<password>'],
      contexts: [
        {
          name: 'shell script',
          path: 'scripts/deploy.sh',
          render: (v) => `#!/bin/sh\nsshpass -p '${v}' ssh deploy@app.internal uptime\n`,
        },
        {
          name: 'CI step',
          path: '.gitlab-ci.yml',
          render: (v) => `deploy:\n  script:\n    - sshpass -p"${v}" scp build.tgz deploy@app.internal:/srv\n`,
        },
        {
          name: 'Python subprocess',
          path: 'tools/push.py',
          render: (v) => `os.system("sshpass -p ${v} rsync -a dist/ deploy@app.internal:/srv")\n`,
        },
      ],
    },
  },
  {
    id: 'shell-net-use-password',
    title: 'Password on a Windows net use command line',
    severity: 'high',
    keywords: ['net use'],
    gate: /[ \t]/,
    pattern: new RegExp(
      `(?<![\\w.-])net[ \\t]+use[ \\t]+(?:[A-Za-z]:[ \\t]+)?\\\\\\\\[^\\s"'/]{1,200}[ \\t]+(?:/user:[^\\s]{1,100}[ \\t]+)?${WORD}`,
      'i',
    ),
    validate: judgeStatementPassword,
    samples: {
      match: [fakeHumanPassword('net-use-1'), fakeToken('', 14, undefined, 'net-use-2')],
      ignore: ['*', '%SHARE_PASSWORD%', '$env:SHARE_PASSWORD', 'changeme'],
      contexts: [
        {
          name: 'batch, password first',
          path: 'scripts/map.bat',
          render: (v) => `@echo off\nnet use Z: \\\\files.internal\\builds ${v} /user:CORP\\builder\n`,
        },
        {
          name: 'PowerShell, /user first',
          path: 'scripts/map.ps1',
          render: (v) => `net use \\\\files.internal\\ipc$ /user:builder '${v}'\n`,
        },
      ],
    },
  },
]);
