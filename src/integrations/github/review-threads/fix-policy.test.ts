import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CheckEvidence, evaluateFixPolicy, type PolicyInput } from './fix-policy.js';
import { CLASSIFICATIONS, type FixItem } from './payload-schemas.js';

const passed: CheckEvidence = { status: 'passed', runId: 'r', at: 't' };
const full: FixItem = {
  threadId: 'PRRT_1',
  classification: 'valid',
  fixSummary: 'changed it',
  verification: ['npm test passed'],
  checksRun: ['npm test'],
  commitSha: 'abc1234',
  resolveRequested: true,
};
function input(item: Partial<FixItem>, extra: Partial<PolicyInput> = {}): PolicyInput {
  return {
    item: { ...full, ...item },
    stored: undefined,
    config: { autoResolveClassifications: [], requireChecksBeforeResolve: true },
    autoResolveMode: false,
    evidence: passed,
    commitInHead: 'yes',
    ...extra,
  };
}
const allowAll = {
  autoResolveClassifications: ['valid', 'invalid', 'stale', 'already_fixed'] as const,
  requireChecksBeforeResolve: true,
};

describe('the fix policy (its table in docs/review-threads.md)', () => {
  test.each<[string, PolicyInput, boolean, boolean | null]>([
    ['valid with summary, verification, commit in head and passing checks: reply and resolve', input({}), true, true],
    ['valid without fixSummary: neither', input({ fixSummary: undefined }), false, false],
    ['valid without verification: neither', input({ verification: [] }), false, false],
    ['valid without commitSha: reply only', input({ commitSha: undefined }), true, false],
    ['valid with a commit not in the pushed head: reply only', input({}, { commitInHead: 'no' }), true, false],
    [
      'valid with failed checks: reply only',
      input({}, { evidence: { status: 'failed', detail: 'failed' } }),
      true,
      false,
    ],
    [
      'valid with checks not required: resolve',
      input(
        {},
        {
          evidence: { status: 'missing', detail: 'x' },
          config: { autoResolveClassifications: [], requireChecksBeforeResolve: false },
        },
      ),
      true,
      true,
    ],
    ['already_fixed not allowed by config: reply only', input({ classification: 'already_fixed' }), true, false],
    [
      'already_fixed allowed by config: resolve',
      input({ classification: 'already_fixed' }, { config: allowAll }),
      true,
      true,
    ],
    [
      'stale allowed, outdated or with evidence: resolve',
      input({ classification: 'stale' }, { config: allowAll }),
      true,
      true,
    ],
    [
      'stale allowed but neither outdated nor evidenced: reply blocked too',
      input({ classification: 'stale', fixSummary: undefined }, { config: allowAll }),
      false,
      false,
    ],
    ['invalid with a rationale, no policy: reply only', input({ classification: 'invalid' }), true, false],
    ['invalid with explicit policy: resolve', input({ classification: 'invalid' }, { config: allowAll }), true, true],
    [
      'needs_human: never, whatever the config',
      input({ classification: 'needs_human', humanDecision: 'pick' }, { config: allowAll }),
      false,
      false,
    ],
    [
      'a triage that needs a human wins over the payload',
      input(
        {},
        {
          stored: {
            threadId: 'PRRT_1',
            path: null,
            line: null,
            isResolved: false,
            isOutdated: false,
            author: null,
            latestCommentId: null,
            latestCommentPreview: '',
            canReply: true,
            canResolve: true,
            classification: 'valid',
            requiresHumanDecision: true,
          },
        },
      ),
      false,
      false,
    ],
    ['valid in auto-resolve mode needs the allow-list too', input({}, { autoResolveMode: true }), true, false],
    ['no resolution requested', input({ resolveRequested: false }), true, null],
  ])('%s', (_name, policyInput, reply, resolve) => {
    const decision = evaluateFixPolicy(policyInput);
    expect(decision.reply.allowed).toBe(reply);
    expect(decision.resolve === null ? null : decision.resolve.allowed).toBe(resolve);
  });

  test('never allows a reply or resolution of needs_human, for any input (property)', () => {
    const classification = fc.constantFrom(...CLASSIFICATIONS);
    fc.assert(
      fc.property(
        classification,
        fc.option(classification, { nil: undefined }),
        fc.boolean(),
        fc.subarray(['valid', 'invalid', 'stale', 'already_fixed'] as const),
        fc.boolean(),
        fc.record({
          fixSummary: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
          replyBody: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        }),
        (payloadClass, storedClass, human, allow, auto, texts) => {
          const decision = evaluateFixPolicy(
            input(
              { classification: payloadClass, ...texts },
              {
                config: { autoResolveClassifications: allow, requireChecksBeforeResolve: false },
                autoResolveMode: auto,
                stored: {
                  threadId: 'PRRT_1',
                  path: null,
                  line: null,
                  isResolved: false,
                  isOutdated: true,
                  author: null,
                  latestCommentId: null,
                  latestCommentPreview: '',
                  canReply: true,
                  canResolve: true,
                  ...(storedClass ? { classification: storedClass } : {}),
                  requiresHumanDecision: human,
                },
              },
            ),
          );
          if (payloadClass === 'needs_human' || storedClass === 'needs_human' || human) {
            expect(decision.reply.allowed).toBe(false);
            expect(decision.resolve?.allowed ?? false).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
