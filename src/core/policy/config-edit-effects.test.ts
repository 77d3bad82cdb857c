import { describe, expect, test } from 'vitest';
import {
  checksNotApplied,
  configEditEffects,
  describeConfigEdit,
  effectsNotApplied,
  type ParsedConfig,
} from './config-edit-effects.js';

const tools = [
  { name: 'checks', enabledByDefault: true },
  { name: 'secrets', enabledByDefault: true },
  { name: 'code_review', enabledByDefault: false },
];
const config = (overrides: Record<string, unknown> = {}, validation: Record<string, unknown> = {}) =>
  ({
    checks: [],
    ignore: [],
    validation: { timeout: 600_000, ...validation },
    ...overrides,
  }) as ParsedConfig;
const check = (name: string, run = 'true') => ({ name, run, cwd: '.' });

describe('what a pending config edit would have changed', () => {
  test('checks added, changed and removed; validators switched; other settings', () => {
    const base = config({ checks: [check('unit'), check('e2e')] }, { code_review: { enabled: false } });
    const working = config(
      { checks: [check('unit', 'npm test'), check('lint'), check('types')], ignore: ['dist/**'] },
      { secrets: { enabled: false }, code_review: { enabled: true }, timeout: 60_000 },
    );
    const effects = configEditEffects(base, working, tools)!;
    expect(effects).toEqual({
      checksAdded: ['lint', 'types'],
      checksRemoved: ['e2e'],
      checksChanged: ['unit'],
      turnedOn: ['code_review'],
      turnedOff: ['secrets'],
      otherSettings: ['ignore', 'validation.timeout'],
    });
    expect(checksNotApplied(effects)).toEqual([
      '2 checks from your edit did not run (lint, types)',
      '1 check your edit changes ran as the base has it (unit)',
      '1 check your edit removes still ran (e2e)',
    ]);
    expect(effectsNotApplied(effects).slice(3)).toEqual([
      'your edit turns off `secrets`',
      'your edit turns on `code_review`',
      'your edit changes `ignore`, `validation.timeout`',
    ]);
    expect(describeConfigEdit(effects)).toBe(
      'adds checks lint, types; changes check unit; removes check e2e; turns off `secrets`; turns on `code_review`; changes `ignore`, `validation.timeout`',
    );
  });

  test('an edit of comments or layout changes nothing', () => {
    expect(
      configEditEffects(config({ checks: [check('unit')] }), config({ checks: [check('unit')] }), tools),
    ).toBeNull();
  });
});
