import { createTempRepo, type TempRepo } from '../support/git-repo.js';

/**
 * The loop every real-agent test drives: the scripted model introduces a bug, validates (the check fails with a
 * distinctive line after 300 passing ones), says done, is blocked by the stop hook, fixes, validates again (passes),
 * says done, and is allowed to stop.
 */
export const FAILING_LINE = 'not ok 301 - add is broken: expected 3, got -1';
/** Where the failed check's finding points: the config line that defines the check. */
export const FINDING_PLACE = 'tollgate.config.yaml:2';
export const STOP_BLOCKED = 'tollgate: validation failed on the current changes';

const CONFIG = [
  'checks:',
  '  - name: unit tests',
  '    run: node test.js',
  'validation:',
  '  code_review: { enabled: false }',
  '  static_analysis: { enabled: false }',
  '  advisories: { enabled: false }',
  '',
].join('\n');

const TEST_JS = [
  "const { add } = require('./math.js');",
  "for (let i = 1; i <= 300; i++) console.log('ok ' + i + ' - adds ' + i + ' and 0');",
  "if (add(1, 2) !== 3) { console.log('not ok 301 - add is broken: expected 3, got ' + add(1, 2)); process.exitCode = 1; }",
  '',
].join('\n');

export const BUG_COMMAND = "sed -i 's/a + b/a - b/' math.js";
export const FIX_COMMAND = "sed -i 's/a - b/a + b/' math.js";

/** A committed project with the check; the agent edits `math.js`. */
export function scenarioRepo(): Promise<TempRepo> {
  return createTempRepo({
    files: {
      'tollgate.config.yaml': CONFIG,
      'test.js': TEST_JS,
      'math.js': 'exports.add = (a, b) => a + b;\n',
      '.gitignore': '.tollgate/\n',
    },
  });
}

export type Step = 'bug' | 'validate' | 'done' | 'fix' | 'revalidate' | 'finish';

/**
 * The next step from the conversation so far (the request body as text) and the ids of the tool calls already
 * answered (`hasResult(id)`), latest first.
 */
export function nextStep(conversation: string, hasResult: (id: string) => boolean): Step {
  if (hasResult('call_revalidate')) return 'finish';
  if (hasResult('call_fix')) return 'revalidate';
  if (conversation.includes(STOP_BLOCKED)) return 'fix';
  if (hasResult('call_validate')) return 'done';
  if (hasResult('call_bug')) return 'validate';
  return 'bug';
}
