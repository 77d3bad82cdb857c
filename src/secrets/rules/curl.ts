import { judgeStatementPassword } from '../generic-value.js';
import { defineRules } from '../rule.js';
import { fakeHumanPassword, fakeToken, lazySamples, URL_SAFE } from '../sample-tokens.js';

/**
 * libcurl options set to a literal: `curl_easy_setopt(h, CURLOPT_USERPWD, "user:pw")` in C, `curl_setopt($ch, …)` in
 * PHP, `c.setopt(pycurl.PASSWORD, '…')` in Python. The option name says what the string is, so no name heuristics.
 */

const OPTION = '(?:CURLOPT_|pycurl\\.)';
/** A string literal in either quote; `Q` in `body` stands for the quote, `G` for a group-name suffix. */
const QUOTED = (body: string, group: string) =>
  `(?:"${body.replace(/Q/g, '"').replace(/G/g, `${group}D`)}"|'${body.replace(/Q/g, "'").replace(/G/g, `${group}S`)}')`;
const USERPWD = '(?:PROXY)?USERPWD';
const PASSWORD_OPTION = '(?:PROXY_)?(?:TLSAUTH_)?PASSWORD|PROXYPASSWORD|(?:SSL)?KEYPASSWD|SSLCERTPASSWD|XOAUTH2_BEARER';

const curlContexts = (option: string, literal: (v: string) => string) => [
  {
    name: 'C',
    path: 'src/fetch.c',
    render: (v: string) => `CURL *h = curl_easy_init();\ncurl_easy_setopt(h, CURLOPT_${option}, "${literal(v)}");\n`,
  },
  {
    name: 'PHP',
    path: 'lib/Client.php',
    render: (v: string) => `<?php\ncurl_setopt($ch, CURLOPT_${option}, '${literal(v)}');\n`,
  },
  {
    name: 'Python pycurl',
    path: 'tools/fetch.py',
    render: (v: string) => `c = pycurl.Curl()\nc.setopt(pycurl.${option}, "${literal(v)}")\n`,
  },
];

export default defineRules([
  {
    id: 'curl-option-password',
    title: 'Password in a libcurl option (CURLOPT_PASSWORD, CURLOPT_USERPWD, …)',
    severity: 'high',
    keywords: ['curlopt_', 'pycurl.'],
    gate: /[a-z0-9_]{0,24}[ \t]*,/i,
    pattern: new RegExp(
      `${OPTION}(?:${USERPWD}[ \\t]*,[ \\t]*${QUOTED('[^Q:\\r\\n]{0,100}:(?<secretG>[^Q\\r\\n]{1,200})', 'User')}|(?:${PASSWORD_OPTION})[ \\t]*,[ \\t]*${QUOTED('(?<secretG>[^Q\\r\\n]{1,200})', 'Pass')})`,
    ),
    validate: judgeStatementPassword,
    samples: lazySamples(() => ({
      match: [fakeHumanPassword('curl-1'), fakeToken('', 20, URL_SAFE, 'curl-2')],
      ignore: ['changeme', '<password>', `\${PROXY_PASSWORD}`, '********'],
      contexts: [
        ...curlContexts('PASSWORD', (v) => v),
        ...curlContexts('USERPWD', (v) => `deploy:${v}`),
        ...curlContexts('PROXYPASSWORD', (v) => v),
        ...curlContexts('XOAUTH2_BEARER', (v) => v),
      ],
    })),
  },
]);
