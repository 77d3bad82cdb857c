import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ACTION_INPUTS, stepEnvironmentFromInputs } from './runner-inputs.js';

describe('stepEnvironmentFromInputs', () => {
  it('maps every input action.yml declares, and nothing else', () => {
    const action = parseYaml(readFileSync(join(import.meta.dirname, '../../../action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    expect(Object.keys(ACTION_INPUTS).sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("reads the runner's names (upper case, '-' kept) and leaves unset inputs out", () => {
    expect(
      stepEnvironmentFromInputs({
        'INPUT_FAIL-ON': 'never',
        INPUT_COMMENT: 'true',
        INPUT_TOKEN: '',
        TOLLGATE_BASE: 'x',
      }),
    ).toEqual({ TOLLGATE_FAIL_ON: 'never', TOLLGATE_COMMENT: 'true', TOLLGATE_TOKEN: '' });
  });
});
