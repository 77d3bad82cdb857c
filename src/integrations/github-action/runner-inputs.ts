import type { ActionEnvironment } from './action-inputs.js';

/** action.yml's inputs and the step setting each one fills. */
export const ACTION_INPUTS = {
  command: 'TOLLGATE_COMMAND',
  base: 'TOLLGATE_BASE',
  config: 'TOLLGATE_CONFIG_INPUT',
  'fail-on': 'TOLLGATE_FAIL_ON',
  only: 'TOLLGATE_ONLY',
  skip: 'TOLLGATE_SKIP',
  sarif: 'TOLLGATE_SARIF',
  comment: 'TOLLGATE_COMMENT',
  annotations: 'TOLLGATE_ANNOTATIONS',
  alert: 'TOLLGATE_ALERT',
  agents: 'TOLLGATE_AGENTS',
  analyses: 'TOLLGATE_ANALYSES',
  token: 'TOLLGATE_TOKEN',
} as const satisfies Record<string, keyof ActionEnvironment>;

/**
 * The runner hands a JavaScript action each input as `INPUT_<NAME>` (upper case, spaces as `_`, `-` kept, so
 * `INPUT_FAIL-ON`), defaults already applied; inputs the runner did not set are left out.
 */
export function stepEnvironmentFromInputs(env: NodeJS.ProcessEnv): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [input, setting] of Object.entries(ACTION_INPUTS)) {
    const value = env[`INPUT_${input.replace(/ /g, '_').toUpperCase()}`];
    if (value !== undefined) settings[setting] = value;
  }
  return settings;
}
