import { afterEach, expect, test } from 'vitest';
import { resetKnownValues } from '../../secrets/known-values.js';
import { BASE64, fakeToken } from '../../secrets/sample-tokens.js';
import { makeFinding } from '../finding.js';
import { result } from '../result.js';
import { redactResult } from './redact-result.js';

const awsSecret = fakeToken('', 40, BASE64, 'redact-result-aws');

afterEach(() => {
  delete process.env.AWS_SECRET_ACCESS_KEY_FOR_TEST;
  resetKnownValues();
});

test('a reviewer quoting a keyword-less secret from the environment: masked in summary, findings and details', async () => {
  process.env.AWS_SECRET_ACCESS_KEY_FOR_TEST = awsSecret;
  resetKnownValues();
  const finding = makeFinding({
    validator: 'code_review',
    ruleId: 'review',
    severity: 'high',
    title: `Hard-coded ${awsSecret}`,
    body: `The deploy script embeds ${awsSecret} in the upload call.`,
    path: 'deploy.sh',
    line: 3,
  });
  const masked = await redactResult(
    result('failed', `1 finding: ${awsSecret}`, [finding], { raw: { answer: `quoted ${awsSecret}` } }),
  );
  expect(JSON.stringify(masked)).not.toContain(awsSecret);
  expect(masked.summary).toBe('1 finding: ***');
  expect(masked.details).toEqual({ raw: { answer: 'quoted ***' } });
});
