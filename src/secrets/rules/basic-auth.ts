import { GATES } from '../generic-value.js';
import { defineRules } from '../rule.js';
import { base64Of, fakeHumanPassword, fakeToken } from '../sample-tokens.js';
import { isUsablePassword } from '../url-password.js';
import { decodesToUserAndPassword } from './npm.js';

export default defineRules([
  {
    id: 'basic-auth-url',
    title: 'URL with embedded credentials (https://user:password@…)',
    severity: 'high',
    keywords: [
      'http://',
      'https://',
      'ftp://',
      'ftps://',
      'sftp://',
      'smtp://',
      'smtps://',
      'ldap://',
      'ldaps://',
      'ssh://',
      'wss://',
      'ws://',
      'git+https://',
    ],
    gate: GATES.urlUser,
    pattern:
      /(?:git\+)?(?:https?|ftps?|sftp|smtps?|ldaps?|ssh|wss?):\/\/[^\s:/@'"`<>]{1,100}:([^\s@'"`<>/]{1,200})@(?!(?:[\w-]+\.)*example\.(?:com|org|net)\b)[A-Za-z0-9[]/i,
    validate: isUsablePassword,
    samples: {
      match: [
        `https://deploy:${encodeURIComponent(fakeHumanPassword())}@artifacts.acme.internal/repo`,
        `https://ci-bot:${fakeToken('', 32)}@git.acme.internal/app.git`,
      ],
      ignore: [
        'https://user:password@example.com',
        `https://\${USER}:\${TOKEN}@git.acme.internal`,
        'https://admin:<password>@host',
      ],
    },
  },
  {
    id: 'basic-auth-header',
    title: 'HTTP Basic authorization header (Basic …)',
    severity: 'high',
    keywords: ['basic '],
    gate: /[ \t]{0,3}[A-Za-z0-9+/]{8}/,
    pattern: /Basic[ \t]{1,4}([A-Za-z0-9+/]{8,200}={0,2})(?![A-Za-z0-9+/=])/,
    validate: decodesToUserAndPassword,
    samples: {
      match: [`Basic ${base64Of(`api:${fakeHumanPassword()}`)}`],
      ignore: [`Basic ${base64Of(`user:\${PASSWORD}`)}`, 'Basic authentication is enabled'],
    },
  },
  {
    id: 'basic-auth-curl',
    title: 'curl credentials (curl -u user:password)',
    severity: 'high',
    keywords: ['curl '],
    pattern: /curl[ \t][^\r\n]{0,200}?[ \t](?:-u|--user)[ \t=]{1,2}["']?[^\s:'"]{1,60}:([^\s'"()]{1,100})/,
    validate: isUsablePassword,
    samples: {
      match: [`curl -sS -u admin:${fakeHumanPassword()} https://api.acme.internal/v1`],
      ignore: ['curl -u admin:$ADMIN_PASSWORD https://api.acme.internal', 'curl -u "$USER:$PASS" https://host'],
    },
  },
]);
