import { judgeStatementPassword } from '../generic-value.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples } from '../sample-tokens.js';

/**
 * Command lines whose syntax, not a variable name, says which word is the password: `sshpass -p …`, Windows
 * `net use \\server\share PASSWORD /user:…`, a literal piped into `--password-stdin`, `docker login -p …`, and the
 * clients whose short flag is the password (`redis-cli -a`, `mongosh -p`, `sqlcmd -P`, `ldapsearch -w`). `*`
 * (prompt), variables and `-e`/`-f` (password from env or file) never match.
 */

/** A quoted or bare shell word; a bare one must not be another flag, a variable or a prompt marker. */
const WORD =
  '(?:\'(?<secretSingle>[^\'\\r\\n]{1,200})\'|"(?<secretQuoted>[^"\\r\\n]{1,200})"|(?<secretBare>[^\\s\'"`$%/*|;&<>-][^\\s\'"`|;&<>]{0,199}))';

/** Where a command line ends: a pipe, a list separator or a redirection. */
const SAME_COMMAND = '[^\\r\\n|;&]{0,200}?';

/** Renders a command line in a script, a Makefile recipe, a Dockerfile RUN and a CI step. */
const commandContexts = (line: (v: string) => string) => [
  { name: 'shell script', path: 'scripts/deploy.sh', render: (v: string) => `#!/bin/sh\nset -e\n${line(v)}\n` },
  { name: 'Makefile', path: 'Makefile', render: (v: string) => `push:\n\t${line(v)}\n` },
  { name: 'Dockerfile', path: 'Dockerfile', render: (v: string) => `FROM alpine:3.20\nRUN ${line(v)}\n` },
  {
    name: 'CI step',
    path: '.github/workflows/release.yml',
    render: (v: string) => `jobs:\n  push:\n    steps:\n      - run: ${line(v)}\n`,
  },
];

const commandIgnores = ['$REGISTRY_PASSWORD', `\${REGISTRY_PASSWORD}`, `\${{ secrets.REGISTRY_PASSWORD }}`, 'changeme'];

export default defineRules([
  {
    id: 'shell-sshpass-password',
    title: 'Password on an sshpass command line (sshpass -p …)',
    severity: 'high',
    keywords: ['sshpass'],
    gate: /[ \t]/,
    pattern: new RegExp(`(?<![\\w.-])sshpass[ \\t]+(?:-[A-Za-oq-z][ \\t]+)?-p[ \\t]?${WORD}`),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
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
    })),
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
    samples: lazySamples(() => ({
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
    })),
  },
  {
    id: 'shell-password-stdin',
    title: 'Literal password piped into --password-stdin (echo … | docker login)',
    severity: 'high',
    keywords: ['password-stdin'],
    pattern: new RegExp(
      `(?<![\\w.-])(?:echo|printf)[ \\t]+(?:-[neE]{1,3}[ \\t]+)?${WORD}[ \\t]*\\|${SAME_COMMAND}--password-stdin\\b`,
    ),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('password-stdin-1'), fakeToken('', 24, undefined, 'password-stdin-2')],
      ignore: ['"$REGISTRY_PASSWORD"', '$CR_PAT', `"\${{ secrets.GITHUB_TOKEN }}"`, 'changeme'],
      contexts: commandContexts((v) => `echo '${v}' | docker login -u deploy --password-stdin registry.acme.dev`),
    })),
  },
  {
    id: 'shell-registry-login-password',
    title: 'Password on a registry login command line (docker login -p …)',
    severity: 'high',
    keywords: ['docker login', 'podman login', 'buildah login', 'nerdctl login', 'registry login', 'skopeo login'],
    pattern: new RegExp(
      `(?<![\\w.-])(?:docker|podman|buildah|nerdctl|skopeo|helm[ \\t]+registry)[ \\t]+login\\b${SAME_COMMAND}[ \\t]-p[ \\t]+${WORD}`,
    ),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('registry-login-1'), fakeToken('', 20, undefined, 'registry-login-2')],
      ignore: commandIgnores,
      contexts: commandContexts((v) => `docker login -u deploy -p ${v} registry.acme.dev`),
    })),
  },
  {
    id: 'shell-client-password-flag',
    title:
      'Password on a database or directory client command line (redis-cli -a, mongosh -p, sqlcmd -P, ldapsearch -w)',
    severity: 'high',
    keywords: [
      'redis-cli',
      'mongo',
      'sqlcmd',
      'bcp ',
      'ldapsearch',
      'ldapadd',
      'ldapmodify',
      'ldapdelete',
      'ldappasswd',
    ],
    pattern: new RegExp(
      `(?<![\\w.-])(?:(?:redis-cli${SAME_COMMAND}[ \\t](?:-a|--pass))|(?:mongo(?:sh|dump|restore|export|import)?${SAME_COMMAND}[ \\t]-p)|(?:(?:sqlcmd|bcp)${SAME_COMMAND}[ \\t]-P)|(?:ldap(?:search|add|modify|delete|passwd)${SAME_COMMAND}[ \\t]-w))[ \\t]+${WORD}`,
    ),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('client-flag-1'), fakeToken('', 18, undefined, 'client-flag-2')],
      ignore: commandIgnores,
      contexts: [
        ...commandContexts((v) => `redis-cli -h cache.internal -a '${v}' ping`),
        { name: 'mongosh', path: 'scripts/db.sh', render: (v) => `mongosh --host db.internal -u admin -p ${v}\n` },
        {
          name: 'sqlcmd',
          path: 'scripts/db.ps1',
          render: (v) => `sqlcmd -S sql.internal -U sa -P "${v}" -Q "select 1"\n`,
        },
        {
          name: 'ldapsearch',
          path: 'scripts/ldap.sh',
          render: (v) => `ldapsearch -x -D cn=admin -w '${v}' -b dc=acme\n`,
        },
      ],
    })),
  },
  {
    id: 'shell-remote-exec-password',
    title: 'Password on a Windows remote-execution command line (psexec/paexec -p …)',
    severity: 'high',
    keywords: ['psexec', 'paexec'],
    pattern: new RegExp(`(?<![\\w.-])(?:ps|pa)exec(?:64)?(?:\\.exe)?${SAME_COMMAND}[ \\t]-p[ \\t]+${WORD}`, 'i'),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('psexec-1'), fakeToken('', 16, undefined, 'psexec-2')],
      ignore: [...commandIgnores, '%ADMIN_PASSWORD%'],
      contexts: [
        {
          name: 'batch file',
          path: 'deploy/run.cmd',
          render: (v) => `PsExec.exe \\\\build01 -u ACME\\deploy -p ${v} -accepteula cmd /c ver\n`,
        },
        {
          name: 'PowerShell',
          path: 'deploy/run.ps1',
          render: (v) => `& psexec \\\\10.0.4.12 -u Administrator -p "${v}" -i -d hostname\n`,
        },
      ],
    })),
  },
  {
    id: 'shell-wget-password',
    title: 'Password on a wget command line (--password=, --http-password=, --ftp-password=)',
    severity: 'high',
    keywords: ['wget'],
    pattern: new RegExp(`(?<![\\w.-])wget${SAME_COMMAND}[ \\t]--(?:http-|ftp-|proxy-)?password[= \\t]${WORD}`),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('wget-1'), fakeToken('', 16, undefined, 'wget-2')],
      ignore: commandIgnores,
      contexts: commandContexts((v) => `wget --user=deploy --password=${v} https://files.acme.internal/build.tgz`),
    })),
  },
]);
