import {
  clearAdapterHealth,
  cooldownEndsAt,
  isCoolingDown,
  type ProbeOptions,
  type ProbeResult,
  probeAgent,
  readUnhealthyAdapters,
} from './health.js';
import { type AgentName, agentByName, type RegisteredAdapter } from './index.js';

export interface CoolingAdapter {
  adapter: RegisteredAdapter;
  /** Epoch ms when it may rejoin (after a probe). */
  until: number;
  reason: string;
}

export interface UnavailableAdapter {
  adapter: RegisteredAdapter;
  probe: Exclude<ProbeResult, { kind: 'ok' }>;
}

export interface ReviewerPool {
  /** In preference order; slots go round-robin over these. */
  healthy: RegisteredAdapter[];
  coolingDown: CoolingAdapter[];
  unavailable: UnavailableAdapter[];
  /** Adapters whose cooldown had ended and whose probe passed: their mark was cleared. */
  rejoined: AgentName[];
}

export interface ReviewerPoolOptions extends Omit<ProbeOptions, 'timeoutMs'> {
  preference: readonly AgentName[];
  /** Stop probing once this many adapters are healthy (`numReviews`: more would get no slot). */
  wanted: number;
  /** Epoch ms; injectable so tests move the clock instead of sleeping. */
  now: number;
  /** Replaces `probeAgent` (tests). */
  probe?: (adapter: RegisteredAdapter) => Promise<ProbeResult>;
}

/**
 * Walks `cliPreference`: an adapter still cooling down is skipped with its end time; any other is probed (installed,
 * the right program, logged in). An adapter whose cooldown has ended rejoins when its probe passes.
 */
export async function buildReviewerPool(options: ReviewerPoolOptions): Promise<ReviewerPool> {
  const marks = await readUnhealthyAdapters(options.repoRoot);
  const probe = options.probe ?? ((adapter: RegisteredAdapter) => probeAgent(adapter, options));
  const pool: ReviewerPool = { healthy: [], coolingDown: [], unavailable: [], rejoined: [] };
  for (const name of options.preference) {
    if (pool.healthy.length >= options.wanted) break;
    const adapter = agentByName(name);
    const mark = marks[name];
    if (isCoolingDown(mark, options.now)) {
      pool.coolingDown.push({ adapter, until: cooldownEndsAt(mark), reason: mark.reason });
      continue;
    }
    const result = await probe(adapter);
    if (result.kind !== 'ok') {
      pool.unavailable.push({ adapter, probe: result });
      continue;
    }
    if (mark) {
      await clearAdapterHealth(options.repoRoot, name);
      pool.rejoined.push(name);
    }
    pool.healthy.push(adapter);
  }
  return pool;
}

export interface ReviewSlot {
  /** 1-based. */
  slot: number;
  adapter: RegisteredAdapter;
  /** `codex@1`: how messages and artifacts name the slot. */
  label: string;
}

/** `numReviews` slots round-robin over the healthy adapters; one healthy adapter takes every slot. */
export function assignSlots(healthy: readonly RegisteredAdapter[], numReviews: number): ReviewSlot[] {
  if (healthy.length === 0) return [];
  return Array.from({ length: numReviews }, (_, index) => {
    const adapter = healthy[index % healthy.length]!;
    return { slot: index + 1, adapter, label: `${adapter.name}@${index + 1}` };
  });
}
