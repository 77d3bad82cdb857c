import { createHash, createHmac } from 'node:crypto';
import { compareText } from '../../core/text-order.js';

export interface SigV4Input {
  method: string;
  url: URL;
  /** Lower-case names; `host` and `x-amz-date` must be among them. */
  headers: Record<string, string>;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
  /** `YYYYMMDDTHHMMSSZ`, the same as the `x-amz-date` header. */
  amzDate: string;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The `Authorization` header of AWS Signature Version 4 for a request without a body, signed locally. */
export function sigV4Authorization(input: SigV4Input): string {
  const names = Object.keys(input.headers).sort();
  const query = [...input.url.searchParams]
    .map(([key, value]) => [encodeRfc3986(key), encodeRfc3986(value)] as const)
    .sort(([a], [b]) => compareText(a, b))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonical = [
    input.method,
    input.url.pathname || '/',
    query,
    ...names.map((name) => `${name}:${input.headers[name]?.trim()}`),
    '',
    names.join(';'),
    sha256(''),
  ].join('\n');
  const day = input.amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, day), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
}

function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
