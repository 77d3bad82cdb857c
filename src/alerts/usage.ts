import type { AgentName } from '../agents/index.js';
import { parseJsonLines, parseJsonObject } from '../agents/json-output.js';

/** What a CLI reported about one call: tokens, cost, turns and tool calls, where it reports them (else absent). */
export interface CallUsage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  turns?: number;
  toolCalls?: number;
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function compact(usage: CallUsage): CallUsage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined)) as CallUsage;
}

/** Pure: usage from the CLI's structured stdout (Claude's result object, Codex and Copilot JSONL, Gemini stats). */
export function readUsage(agent: AgentName, stdout: string): CallUsage {
  switch (agent) {
    case 'claude': {
      const result = parseJsonObject(stdout);
      const usage = (result?.usage ?? {}) as Record<string, unknown>;
      return compact({
        inputTokens: num(usage.input_tokens),
        outputTokens: num(usage.output_tokens),
        costUsd: num(result?.total_cost_usd),
        turns: num(result?.num_turns),
      });
    }
    case 'codex': {
      const events = parseJsonLines(stdout);
      const tools = events.filter(
        (event) =>
          event.type === 'item.completed' &&
          (event.item as { type?: string } | undefined)?.type === 'command_execution',
      ).length;
      const done = events.findLast((event) => event.type === 'turn.completed');
      const usage = (done?.usage ?? {}) as Record<string, unknown>;
      return compact({
        inputTokens: num(usage.input_tokens),
        outputTokens: num(usage.output_tokens),
        toolCalls: tools,
      });
    }
    case 'copilot': {
      const events = parseJsonLines(stdout);
      return compact({ toolCalls: events.filter((event) => event.type === 'tool.execution_start').length });
    }
    case 'gemini': {
      const stats = (parseJsonObject(stdout)?.stats ?? {}) as Record<string, unknown>;
      const tools = (stats.tools ?? {}) as Record<string, unknown>;
      return compact({ toolCalls: num(tools.totalCalls) });
    }
    default:
      return {};
  }
}

export function addUsage(total: CallUsage, more: CallUsage): CallUsage {
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  return compact({
    inputTokens: sum(total.inputTokens, more.inputTokens),
    outputTokens: sum(total.outputTokens, more.outputTokens),
    costUsd: sum(total.costUsd, more.costUsd),
    turns: sum(total.turns, more.turns),
    toolCalls: sum(total.toolCalls, more.toolCalls),
  });
}
