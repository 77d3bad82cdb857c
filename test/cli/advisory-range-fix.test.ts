import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/** One advisory for lodash, fixed in 4.17.21, as OSV serves it. */
const RECORD = {
  id: 'GHSA-test-fix0-0001',
  modified: '2026-01-01T00:00:00Z',
  summary: 'Prototype pollution in lodash',
  aliases: ['CVE-2099-0001'],
  affected: [
    {
      package: { ecosystem: 'npm', name: 'lodash' },
      ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }],
      versions: [],
    },
  ],
  database_specific: { severity: 'HIGH' },
};

describe('advisories on a manifest range name the fixed version (fake OSV on 127.0.0.1, built CLI)', () => {
  let server: Server;
  let url: string;
  let repo: TempRepo;
  beforeEach(async () => {
    server = createServer((request, response) => {
      const send = (body: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method === 'POST' && request.url === '/v1/querybatch') {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          const { queries } = JSON.parse(body) as { queries: Array<{ package: { name: string } }> };
          send({
            results: queries.map((query) =>
              query.package.name === 'lodash' ? { vulns: [{ id: RECORD.id, modified: RECORD.modified }] } : {},
            ),
          });
        });
        return;
      }
      if (request.url === `/v1/vulns/${RECORD.id}`) return send(RECORD);
      response.writeHead(404).end();
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': `advisories:\n  sources: [osv]\n  osv: { url: "${url}" }\nvalidation:\n  static_analysis: { enabled: false }\n`,
        'package.json': '{ "name": "app", "dependencies": {} }\n',
      },
    });
  });
  afterEach(async () => {
    await repo.cleanup();
    await new Promise((closed) => server.close(closed));
  });

  test('a range that admits vulnerable versions asks for the fix the advisory has', async () => {
    await repo.write('package.json', '{ "name": "app", "dependencies": { "lodash": "^4.17.0" } }\n');
    const result = await runCli(['run', '--only', 'advisories', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const advisories = JSON.parse(result.stdout).tools.find((tool: { name: string }) => tool.name === 'advisories');
    expect(advisories.status, result.stderr).toBe('failed');
    const [finding] = advisories.findings;
    expect(finding.title).toBe(
      'lodash@^4.17.0 (npm): the range admits versions with 1 known vulnerability; require 4.17.21 or later, or commit a lockfile',
    );
    expect(finding.body).toContain('GHSA-test-fix0-0001 (CVE-2099-0001): high.');
    expect(finding.body).toContain('fixed in 4.17.21.');
    expect(finding.body).not.toContain('no fixed version yet');
  });
});
