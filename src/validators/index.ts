import type { TollgateConfig } from '../core/config/schema.js';
import type { AnyToolDefinition } from '../core/pipeline/tool.js';
import { advisoriesTool } from './advisories/index.js';
import { checksTool } from './checks/index.js';
import { codeReviewTool } from './code-review/index.js';
import { declaredValidatorTools } from './declared/index.js';
import { secretsTool } from './secrets/index.js';
import { staticAnalysisTool } from './static-analysis/index.js';

/** Every validator, sorted by tool name. Adding one is one folder and one line here. */
export const validators: readonly AnyToolDefinition[] = [
  advisoriesTool,
  checksTool,
  codeReviewTool,
  secretsTool,
  staticAnalysisTool,
];

export { declaredValidatorTools };

/**
 * The validators a config runs: the built-in ones (`builtIns`, default the registry above) and those the config
 * declares in `validators:`, each made a registry entry like a built-in one.
 */
export function validatorsFor(
  config: TollgateConfig,
  builtIns: readonly AnyToolDefinition[] = validators,
): readonly AnyToolDefinition[] {
  const declared = declaredValidatorTools(config.validators ?? {});
  return declared.length === 0 ? builtIns : [...builtIns, ...declared];
}
