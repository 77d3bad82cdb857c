import type { ToolContext } from '../../core/pipeline/tool.js';
import { result, type ToolResult } from '../../core/result.js';
import type { ChecksOptions } from './options.js';

export async function runChecks(ctx: ToolContext<ChecksOptions, Record<string, never>>): Promise<ToolResult> {
  return result('passed', `${ctx.options.length} checks (not yet implemented)`);
}
