import { AGENT_NAMES } from '../../src/agents/index.js';
import type { Registries } from '../../src/core/config/registries.js';
import type { AnyToolDefinition } from '../../src/core/pipeline/tool.js';
import { REPORT_FORMATS } from '../../src/report/index.js';

/** The real agent names and report formats with the given validators: what a test's config is parsed against. */
export function registriesWith(tools: readonly AnyToolDefinition[]): Registries {
  return { tools, agentNames: AGENT_NAMES, reportFormats: REPORT_FORMATS };
}
