import aws from './aws.js';
import datadog from './datadog.js';
import github from './github.js';
import gitlab from './gitlab.js';
import mailgun from './mailgun.js';
import modelApis from './model-apis.js';
import npm from './npm.js';
import sendgrid from './sendgrid.js';
import slack from './slack.js';
import stripe from './stripe.js';
import twilio from './twilio.js';
import type { Verifier } from './types.js';

/** Rule id → the verifier for its provider. A rule not here is not verified (its findings say `unknown`). */
export const VERIFIERS: ReadonlyMap<string, Verifier> = new Map([
  ...github,
  ...gitlab,
  ...slack,
  ...stripe,
  ...modelApis,
  ...npm,
  ...sendgrid,
  ...datadog,
  ...mailgun,
  ...twilio,
  ...aws,
]);
