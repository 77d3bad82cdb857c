import { describe, expect, test } from 'vitest';
import { registriesWith } from '../../../test/support/registries.js';
import { validators } from '../../validators/index.js';
import { parseConfigText } from '../config/load.js';
import { selectTools } from './select-tools.js';

const { config } = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(validators) });

describe('selectTools', () => {
  test('--only X --skip X leaves nothing to run: a usage error, never an empty PASSED run', () => {
    expect(() => selectTools(validators, config, { only: ['secrets'], skip: ['secrets'] })).toThrow(
      '--skip: no validator left to run (secrets all skipped)',
    );
  });

  test('skipping every enabled validator is a usage error too', () => {
    const enabled = validators.filter((tool) => tool.enabledByDefault).map((tool) => tool.name);
    expect(() => selectTools(validators, config, { only: [], skip: enabled })).toThrow(/no validator left to run/);
  });

  test('--only narrows and marks the run partial', () => {
    expect(selectTools(validators, config, { only: ['secrets'], skip: [] })).toMatchObject({ partial: true });
  });
});
