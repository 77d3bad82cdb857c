import { z } from 'zod';
import { type AnyToolDefinition, defineTool } from '../../src/core/pipeline/tool.js';

/**
 * A validator for tests: no options, any input, no permissions, enabled by default, its config key its name; `run`
 * is the test's, and `extra` overrides any other field (a title, `readsHistory`).
 */
export function testTool(
  name: string,
  run: AnyToolDefinition['run'],
  extra: Partial<AnyToolDefinition> = {},
): AnyToolDefinition {
  return defineTool({
    name,
    title: name,
    description: 'test',
    configKey: name,
    optionsSchema: z.object({}).prefault({}),
    inputSchema: z.object({}).loose(),
    permissions: [],
    enabledByDefault: true,
    ...extra,
    run,
  });
}
