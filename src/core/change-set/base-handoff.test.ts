import { describe, expect, it } from 'vitest';
import { handOffBase, takeHandedBase } from './base-handoff.js';
import type { ChangeSetBase } from './types.js';

const base: ChangeSetBase = { ref: 'main', commit: 'a'.repeat(40), source: 'default-branch' };
const head = 'b'.repeat(40);

describe('the base handed from the policy to the change set', () => {
  it('is taken once, at the same HEAD and trusted commits', () => {
    handOffBase('/repo', head, ['c'], base);
    expect(takeHandedBase('/repo/', head, ['c'])).toEqual(base);
    // The tree recheck and any later change set resolve from git again.
    expect(takeHandedBase('/repo', head, ['c'])).toBeNull();
  });

  it('is dropped when HEAD moved or the trusted commits differ', () => {
    handOffBase('/repo', head, ['c'], base);
    expect(takeHandedBase('/repo', 'd'.repeat(40), ['c'])).toBeNull();
    expect(takeHandedBase('/repo', head, ['c'])).toBeNull();
    handOffBase('/repo', head, ['c'], base);
    expect(takeHandedBase('/repo', head, undefined)).toBeNull();
    handOffBase('/repo', null, undefined, base);
    expect(takeHandedBase('/repo', head, undefined)).toBeNull();
  });
});
