// A local HTTPS stand-in for credential providers, in plain JavaScript so that both the tests (through
// fake-provider.ts) and the benchmarks (bench/verify.mjs, which run without a TypeScript loader) use the same one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CA made with openssl and a server certificate for 127.0.0.1 signed by it. */
export function makeTestCa() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-ca-'));
  const run = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=tollgate test CA']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
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
  const read = (name) => readFileSync(join(dir, name), 'utf8');
  return { dir, caFile: join(dir, 'ca.pem'), ca: read('ca.pem'), key: read('server.key'), cert: read('server.pem') };
}

export function removeTestCa(ca) {
  rmSync(ca.dir, { recursive: true, force: true });
}

/**
 * An HTTPS server on 127.0.0.1 that records every request and answers as `answer` says: a status and body, after
 * `delayMs` if given (a provider's latency), or 'hang' (never answers).
 */
export async function startFakeProvider(ca, answer) {
  const seen = [];
  const server = createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const record = { method: req.method ?? '', path: req.url ?? '', headers: req.headers };
    seen.push(record);
    req.resume();
    const reply = answer(record);
    if (reply === 'hang') return;
    const send = () => {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body ?? '{}');
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    base: `https://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
