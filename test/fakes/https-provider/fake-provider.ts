import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CA made with openssl and a server certificate for 127.0.0.1 signed by it. */
export interface TestCa {
  dir: string;
  caFile: string;
  ca: string;
  key: string;
  cert: string;
}

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-ca-'));
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=tollgate test CA',
  ]);
  run([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  ]);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return { dir, caFile: join(dir, 'ca.pem'), ca: read('ca.pem'), key: read('server.key'), cert: read('server.pem') };
}

export function removeTestCa(ca: TestCa): void {
  rmSync(ca.dir, { recursive: true, force: true });
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What the fake answers for a request: a status and body, or `hang` (never answers). */
export type FakeAnswer = { status: number; body?: string } | 'hang';

export interface FakeProvider {
  base: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 that records every request and answers as `answer` says. */
export async function startFakeProvider(ca: TestCa, answer: (req: SeenRequest) => FakeAnswer): Promise<FakeProvider> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const record = { method: req.method ?? '', path: req.url ?? '', headers: req.headers };
    seen.push(record);
    req.resume();
    const reply = answer(record);
    if (reply === 'hang') return;
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `https://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
