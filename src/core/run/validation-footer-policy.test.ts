import { expect, test } from 'vitest';
import { pendingPolicyTool } from '../../../test/support/pending-policy-tool.js';
import { validationFooter } from './validation-results.js';

/** What an MCP client's agent reads while a policy edit is pending: that a person must accept it, never how. */
test('a pending policy edit in a tool result: a person must accept it; no command to get past it', () => {
  const policy = pendingPolicyTool('.gitleaksignore', 'added');
  const footer = validationFooter({ callName: 'parallel_validation', status: 'failed', tools: [policy], runId: 'r' });
  expect(footer).toBe(
    'Only a person can accept a policy edit (.gitleaksignore): tell the user it is pending; a waiver does not end it. To go on without it, restore the file as the base has it. Then call `parallel_validation` again after your changes.',
  );
});
