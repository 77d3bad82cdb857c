import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import type { ValidationToolPlan } from './tool-plan.js';

/** What every validation tool tells the agent about when to call it. */
const WHEN_TO_VALIDATE =
  'Call it before declaring a change done; a stop hook refuses "done" until validation has passed on the current files. ' +
  'Always validate security-sensitive changes (authentication, secrets, input handling, permissions, dependencies), ' +
  'however small. Do not call it again after it timed out.';

export function describeValidationTool(plan: ValidationToolPlan): string {
  if (plan.kind === 'parallel') {
    const list = plan.tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n');
    return `Validates the current change with every active validator at once, on one shared snapshot of the changed files, and reports all results together. ${WHEN_TO_VALIDATE}\n\nValidators (declare triviality per validator under trivialChangeDeclaration.<camelCaseName>):\n${list}`;
  }
  return `${plan.tool.title}: ${plan.tool.description} ${plan.coversAll ? WHEN_TO_VALIDATE : standaloneNote(plan.tool)}`;
}

function standaloneNote(tool: AnyToolDefinition): string {
  if (tool.name === 'advisories') {
    return 'Check every dependency before you add or upgrade it (name, version, ecosystem), not only at the end.';
  }
  if (tool.name === 'secrets') {
    return 'Use it with paths on files you are about to commit or hand over; parallel_validation still has to pass before "done".';
  }
  return 'It runs this validator alone over the whole change (to recheck after fixing its findings); parallel_validation still has to pass before "done".';
}

export const VALIDATION_STATUS_DESCRIPTION =
  'Says whether validation has passed on the current change (what the stop hook checks), how many findings are unresolved, ' +
  "and how much of the session's validation budget is left. Cheap: it runs no validator.";
