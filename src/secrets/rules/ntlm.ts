import { defineRules } from '../rule.js';
import { lazySamples, randomString } from '../sample-tokens.js';

/** An NTLM AUTHENTICATE message (type 3) whose NT response is there: a challenge response that can be cracked offline. */
function carriesNtResponse(encoded: string): boolean {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length < 64 || bytes.toString('latin1', 0, 8) !== 'NTLMSSP\0' || bytes.readUInt32LE(8) !== 3) return false;
  const length = bytes.readUInt16LE(20);
  const offset = bytes.readUInt32LE(24);
  if (length < 24 || offset + length > bytes.length) return false;
  return bytes.subarray(offset, offset + length).some((byte) => byte !== 0);
}

function authenticateMessage(ntResponse: Buffer): string {
  const header = Buffer.alloc(64);
  header.write('NTLMSSP\0', 0, 'latin1');
  header.writeUInt32LE(3, 8);
  header.writeUInt16LE(ntResponse.length, 20);
  header.writeUInt16LE(ntResponse.length, 22);
  header.writeUInt32LE(64, 24);
  return Buffer.concat([header, ntResponse]).toString('base64');
}

export default defineRules([
  {
    id: 'ntlm-authenticate-message',
    title: 'NTLM authentication message with a challenge response (TlRMTVNTUAAD…)',
    severity: 'medium',
    keywords: ['TlRMTVNTUAAD'],
    pattern: /(?<![A-Za-z0-9+/])(TlRMTVNTUAAD[A-Za-z0-9+/]{60,4000}={0,2})(?![A-Za-z0-9+/=])/,
    validate: carriesNtResponse,
    samples: lazySamples(() => ({
      match: [authenticateMessage(Buffer.from(randomString(48, '0123456789abcdef', 'ntlm-response'), 'hex'))],
      ignore: [authenticateMessage(Buffer.alloc(24))],
    })),
  },
]);
