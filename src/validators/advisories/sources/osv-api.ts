import pLimit from 'p-limit';
import { z } from 'zod';
import { appendAll } from '../../../core/append-all.js';
import { type PackageVersion, packageKey } from '../ecosystems.js';
import { type OsvRecord, osvRecordSchema } from '../osv/osv-record.js';
import { fetchJson } from './http-json.js';
import type { AdvisorySource, SourceAnswer, SourceIo } from './source.js';

/**
 * The OSV API (https://google.github.io/osv.dev/api/): `POST /v1/querybatch` answers, per query and in order, the
 * ids (and `modified`) of the vulnerabilities that affect it, paged by `next_page_token`; `GET /v1/vulns/{id}` gives
 * each full record. Batches hold at most 1000 queries.
 */
const BATCH_SIZE = 1000;
const FETCH_CONCURRENCY = 8;

const batchResponseSchema = z.object({
  results: z.array(
    z.object({
      vulns: z.array(z.object({ id: z.string(), modified: z.string().optional() })).default([]),
      next_page_token: z.string().optional(),
    }),
  ),
});
const idsSchema = z.array(z.object({ id: z.string(), modified: z.string().optional() }));

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`;
}

const SOURCE = 'osv';

type VulnId = { id: string; modified?: string };
type Failure = Exclude<SourceAnswer, { kind: 'ok' }>;
type PendingQuery = { index: number; pageToken: string | undefined };

const queryCacheKey = (base: string, pkg: PackageVersion) => `osv-query\0${base}\0${packageKey(pkg)}`;

function batchQuery(pkg: PackageVersion, pageToken: string | undefined) {
  return {
    package: { ecosystem: pkg.ecosystem, name: pkg.name },
    // A range asks for every advisory of the package; which ones the range admits is decided here.
    ...(pkg.range ? {} : { version: pkg.version }),
    ...(pageToken ? { page_token: pageToken } : {}),
  };
}

/** One `querybatch` request; answers the queries still to page through, or why it failed. */
async function queryBatchPage(options: {
  base: string;
  packages: readonly PackageVersion[];
  pending: readonly PendingQuery[];
  ids: VulnId[][];
  io: SourceIo;
}): Promise<PendingQuery[] | Failure> {
  const { base, packages, pending, ids, io } = options;
  const answer = await fetchJson({
    source: SOURCE,
    url: `${base}/v1/querybatch`,
    method: 'POST',
    body: { queries: pending.map(({ index, pageToken }) => batchQuery(packages[index]!, pageToken)) },
    signal: io.signal,
    timeoutMs: io.timeoutMs,
  });
  if (answer.kind !== 'ok') return answer;
  const parsed = batchResponseSchema.safeParse(answer.json);
  if (!parsed.success)
    return { kind: 'error', message: `${SOURCE}: unexpected querybatch answer at ${describeIssue(parsed.error)}` };
  if (parsed.data.results.length !== pending.length) {
    return {
      kind: 'error',
      message: `${SOURCE}: querybatch answered ${parsed.data.results.length} results for ${pending.length} queries`,
    };
  }
  const next: PendingQuery[] = [];
  parsed.data.results.forEach((found, position) => {
    const { index } = pending[position]!;
    appendAll(ids[index]!, found.vulns);
    if (found.next_page_token) next.push({ index, pageToken: found.next_page_token });
  });
  return next;
}

/** The ids affecting each package (same order), from the cache or `querybatch` in batches of BATCH_SIZE. */
async function queryIds(options: {
  base: string;
  packages: readonly PackageVersion[];
  io: SourceIo;
}): Promise<{ kind: 'ok'; ids: VulnId[][] } | Failure> {
  const { base, packages, io } = options;
  const ids: VulnId[][] = packages.map(() => []);
  const todo: number[] = [];
  for (const [index, pkg] of packages.entries()) {
    const cached = await io.cache?.get(queryCacheKey(base, pkg), idsSchema);
    if (cached) ids[index] = cached;
    else todo.push(index);
  }
  for (let start = 0; start < todo.length; start += BATCH_SIZE) {
    let pending: PendingQuery[] = todo
      .slice(start, start + BATCH_SIZE)
      .map((index) => ({ index, pageToken: undefined }));
    while (pending.length > 0) {
      const next = await queryBatchPage({ base, packages, pending, ids, io });
      if (!Array.isArray(next)) return next;
      pending = next;
    }
  }
  for (const index of todo) await io.cache?.set(queryCacheKey(base, packages[index]!), ids[index]);
  return { kind: 'ok', ids };
}

async function fetchRecord(options: {
  base: string;
  id: string;
  modified: string | undefined;
  io: SourceIo;
}): Promise<OsvRecord | Failure> {
  const { base, id, modified, io } = options;
  // `modified` in the key: a record that changed upstream is fetched again whatever the TTL.
  const cacheKey = `osv-vuln\0${base}\0${id}\0${modified ?? ''}`;
  const cached = await io.cache?.get(cacheKey, osvRecordSchema);
  if (cached) return cached;
  const answer = await fetchJson({
    source: SOURCE,
    url: `${base}/v1/vulns/${encodeURIComponent(id)}`,
    signal: io.signal,
    timeoutMs: io.timeoutMs,
  });
  if (answer.kind !== 'ok') return answer;
  const parsed = osvRecordSchema.safeParse(answer.json);
  if (!parsed.success)
    return { kind: 'error', message: `${SOURCE}: unexpected record for ${id} at ${describeIssue(parsed.error)}` };
  await io.cache?.set(cacheKey, parsed.data);
  return parsed.data;
}

/** Each distinct id's full record, FETCH_CONCURRENCY at a time; the first failure wins. */
async function fetchRecords(options: {
  base: string;
  ids: readonly VulnId[][];
  io: SourceIo;
}): Promise<Map<string, OsvRecord> | Failure> {
  const { base, ids, io } = options;
  const unique = new Map<string, string | undefined>();
  for (const list of ids) for (const { id, modified } of list) unique.set(id, modified);
  const limit = pLimit(FETCH_CONCURRENCY);
  const fetched = await Promise.all(
    [...unique].map(([id, modified]) => limit(() => fetchRecord({ base, id, modified, io }))),
  );
  const records = new Map<string, OsvRecord>();
  for (const entry of fetched) {
    if ('kind' in entry) return entry;
    records.set(entry.id, entry);
  }
  return records;
}

export function createOsvSource(options: { baseUrl: string }): AdvisorySource {
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    name: SOURCE,
    async query(packages, io) {
      const batch = await queryIds({ base, packages, io });
      if (batch.kind !== 'ok') return batch;
      const records = await fetchRecords({ base, ids: batch.ids, io });
      if (!(records instanceof Map)) return records;
      return { kind: 'ok', records: batch.ids.map((list) => list.map(({ id }) => records.get(id)!).filter(Boolean)) };
    },
  };
}
