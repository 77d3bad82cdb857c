import { sigV4Authorization } from './sigv4.js';
import { forRules } from './types.js';

/**
 * STS `GetCallerIdentity` needs no permission at all, so any live key pair answers 200; a bad pair gets 403
 * (InvalidClientTokenId, SignatureDoesNotMatch). Signed here: the secret key itself is never sent.
 */
export default forRules(['aws-secret-access-key'], {
  provider: 'aws',
  defaultBase: 'https://sts.amazonaws.com',
  companionRule: 'aws-access-key-id',
  cannotVerify: (context) => {
    if (!context.companion) return 'no access key ID next to it';
    // Temporary keys need their session token, without which STS would call a live key invalid.
    if (context.companion.startsWith('ASIA')) return 'temporary key (needs its session token)';
    return undefined;
  },
  request: (secret, base, context) => {
    const url = new URL(`${base}/?Action=GetCallerIdentity&Version=2011-06-15`);
    const amzDate = context.now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const headers = { host: url.host, 'x-amz-date': amzDate };
    const authorization = sigV4Authorization({
      method: 'GET',
      url,
      headers,
      accessKeyId: context.companion ?? '',
      secretAccessKey: secret,
      region: 'us-east-1',
      service: 'sts',
      amzDate,
    });
    return { method: 'GET', url: url.toString(), headers: { ...headers, authorization } };
  },
});
