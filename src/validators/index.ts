import type { AnyToolDefinition } from '../core/pipeline/tool.js';
import { advisoriesTool } from './advisories/index.js';
import { checksTool } from './checks/index.js';
import { codeReviewTool } from './code-review/index.js';
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
