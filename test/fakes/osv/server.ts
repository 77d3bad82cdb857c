import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const FIXTURES = join(import.meta.dirname, '../../fixtures/advisories/osv');

/** A local stand-in for api.osv.dev on 127.0.0.1, answering from the recorded fixtures. */
export interface FakeOsv {
  /** Base URL, for config `advisories.osv.url`. */
  url: string;
  /** Every querybatch query received, as `ecosystem/name@version`. */
  queries: string[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
  });
}

/** `POST /v1/querybatch` from `querybatch-results.json`, `GET /v1/vulns/ID` from `vulns/ID.json`. */
export async function startFakeOsv(): Promise<FakeOsv> {
  const recorded = JSON.parse(readFileSync(join(FIXTURES, 'querybatch-results.json'), 'utf8')) as Record<
    string,
    unknown[]
  >;
  const queries: string[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const json = (status: number, value: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(value);
    };
    if (request.url === '/v1/querybatch' && request.method === 'POST') {
      const parsed = JSON.parse(body) as {
        queries: { package: { ecosystem: string; name: string }; version: string }[];
      };
      const results = parsed.queries.map((query) => {
        const key = `${query.package.ecosystem}/${query.package.name}@${query.version}`;
        queries.push(key);
        const vulns = recorded[key];
        return vulns ? { vulns } : {};
      });
      return json(200, JSON.stringify({ results }));
    }
    const vuln = /^\/v1\/vulns\/([A-Za-z0-9-]+)$/.exec(request.url ?? '');
    if (vuln) {
      try {
        return json(200, readFileSync(join(FIXTURES, 'vulns', `${vuln[1]}.json`), 'utf8'));
      } catch {
        return json(404, '{"code":5,"message":"Bug not found."}');
      }
    }
    json(404, '{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queries,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
