import pLimit from 'p-limit';
import { sendVerifyRequest } from './send-request.js';
import type { RequestContext, VerificationResult, Verifier, VerifyProvider } from './types.js';
import { classifyByStatus } from './types.js';
import { VERIFIERS } from './verifiers.js';
import { VerifyCache, verifyCacheKey } from './verify-cache.js';

/** A found credential, in memory only, keyed by its finding's fingerprint. */
export interface VerifyCandidate {
  fingerprint: string;
  ruleId: string;
  secret: string;
  /** The value its verifier's `companionRule` found in the same file (AWS: the access key ID). */
  companion?: string;
}

export interface VerifyOptions {
  repoRoot: string;
  /** `permissions.network`: `deny` sends nothing. */
  network: 'allow' | 'deny';
  /** At most this many requests per run. */
  limit: number;
  concurrency?: number;
  timeoutMs?: number;
  /** Config `secrets.verifyEndpoints`: GitHub Enterprise / GitLab self-managed bases (https, checked by zod). */
  endpoints?: Partial<Record<'github' | 'gitlab' | 'mailgun', string>>;
  /**
   * In-process only (tests' fake providers); never reachable from the CLI or config, so nobody can point another
   * provider's credentials at a host of their choosing.
   */
  hostOverrides?: Partial<Record<VerifyProvider, string>>;
  ca?: string | Buffer;
  /** The run's signal (the gate's budget): once aborted, nothing more is sent. */
  signal?: AbortSignal;
  /** Counts requests actually sent (tests). */
  onRequest?: () => void;
}

export interface VerifyOutcome {
  results: Map<string, VerificationResult>;
  notes: string[];
}

/** Asks each credential's own provider whether it is live, within the cap, from the cache when it can. */
export async function verifySecrets(
  candidates: readonly VerifyCandidate[],
  options: VerifyOptions,
): Promise<VerifyOutcome> {
  const results = new Map<string, VerificationResult>();
  const notes: string[] = [];
  if (options.network === 'deny') {
    for (const candidate of candidates)
      results.set(candidate.fingerprint, { status: 'unknown', reason: 'verification off' });
    if (candidates.length > 0) notes.push('verification off: permissions.network is deny');
    return { results, notes };
  }
  const cache = await VerifyCache.open(options.repoRoot);
  // Providers answer in 50–300 ms; 16 at a time keeps 100 findings near half a second, far below any rate limit.
  const limit = pLimit(options.concurrency ?? 16);
  let budget = options.limit;
  let capped = 0;
  const pending: Array<Promise<void>> = [];
  for (const candidate of candidates) {
    const verifier = VERIFIERS.get(candidate.ruleId);
    if (!verifier) {
      results.set(candidate.fingerprint, { status: 'unknown', reason: 'no verifier for this rule' });
      continue;
    }
    const context = { now: new Date(), ...(candidate.companion ? { companion: candidate.companion } : {}) };
    const cannot = verifier.cannotVerify?.(context);
    if (cannot) {
      results.set(candidate.fingerprint, { status: 'unknown', reason: cannot });
      continue;
    }
    const key = verifyCacheKey(candidate.ruleId, `${candidate.secret}\0${candidate.companion ?? ''}`);
    const cached = cache.get(key);
    if (cached) {
      results.set(candidate.fingerprint, { status: cached });
      continue;
    }
    if (budget <= 0) {
      capped++;
      results.set(candidate.fingerprint, { status: 'unknown', reason: 'over secrets.verifyLimit' });
      continue;
    }
    budget--;
    pending.push(
      limit(async () => {
        if (options.signal?.aborted) {
          results.set(candidate.fingerprint, { status: 'unknown', reason: 'not asked: the run stopped' });
          return;
        }
        const result = await verifyOne(verifier, candidate.secret, context, options);
        results.set(candidate.fingerprint, result);
        if (result.status !== 'unknown') cache.set(key, result.status);
      }),
    );
  }
  await Promise.all(pending);
  if (capped > 0) notes.push(`${capped} credential(s) not verified: over secrets.verifyLimit (${options.limit})`);
  if (pending.length > 0) await cache.save(options.repoRoot);
  return { results, notes };
}

async function verifyOne(
  verifier: Verifier,
  secret: string,
  context: RequestContext,
  options: VerifyOptions,
): Promise<VerificationResult> {
  const base = baseFor(verifier, options).replace(/\/+$/, '');
  const request = verifier.request(secret, base, context);
  options.onRequest?.();
  try {
    const response = await sendVerifyRequest(request, {
      timeoutMs: options.timeoutMs ?? 5000,
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return (verifier.classify ?? classifyByStatus)(response);
  } catch (error) {
    // Our own messages (send-request.ts) name no credential; cut anything else to be safe.
    return { status: 'unknown', reason: (error as Error).message.replaceAll(secret, '…').slice(0, 80) };
  }
}

function baseFor(verifier: Verifier, options: VerifyOptions): string {
  const override = options.hostOverrides?.[verifier.provider];
  if (override) return override;
  if (verifier.provider === 'github' || verifier.provider === 'gitlab' || verifier.provider === 'mailgun')
    return options.endpoints?.[verifier.provider] ?? verifier.defaultBase;
  return verifier.defaultBase;
}
