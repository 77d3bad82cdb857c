import { compactUsage } from '../../agents/json-output.js';
import type { CallUsage } from '../../agents/types.js';

export type { CallUsage } from '../../agents/types.js';

export function addUsage(total: CallUsage, more: CallUsage): CallUsage {
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  return compactUsage({
    inputTokens: sum(total.inputTokens, more.inputTokens),
    outputTokens: sum(total.outputTokens, more.outputTokens),
    costUsd: sum(total.costUsd, more.costUsd),
    turns: sum(total.turns, more.turns),
    toolCalls: sum(total.toolCalls, more.toolCalls),
  });
}
