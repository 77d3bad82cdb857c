import type { AnyToolDefinition } from '../core/pipeline/tool.js';
import { checksTool } from './checks/index.js';

/** Every validator, sorted by name. Adding one is one folder and one line here. */
export const validators: readonly AnyToolDefinition[] = [checksTool];

export function findValidator(name: string): AnyToolDefinition | undefined {
  return validators.find((tool) => tool.name === name);
}
