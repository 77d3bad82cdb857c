import type { PackageVersion } from '../ecosystems.js';
import type { OsvRecord } from '../osv/osv-record.js';
import type { ResponseCache } from './response-cache.js';

/** What a source found: for each package asked about (same order), the OSV records that affect it. */
export type SourceAnswer =
  | { kind: 'ok'; records: OsvRecord[][] }
  /** Unreachable, timed out or failing (5xx): the check did not happen. */
  | { kind: 'unavailable'; message: string }
  | { kind: 'rate_limited'; message: string }
  /** It answered something we cannot use (malformed JSON, an unexpected shape, a 4xx). */
  | { kind: 'error'; message: string };

export interface SourceIo {
  signal: AbortSignal;
  /** Per request. */
  timeoutMs: number;
  cache: ResponseCache | null;
  env: NodeJS.ProcessEnv;
}

/** One advisory database behind the common interface; answers are normalized to OSV records. */
export interface AdvisorySource {
  readonly name: string;
  query(packages: readonly PackageVersion[], io: SourceIo): Promise<SourceAnswer>;
}
