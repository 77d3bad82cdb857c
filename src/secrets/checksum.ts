/**
 * CRC32 checksums of GitHub and npm tokens. Both formats end in 6 base62 characters that encode the CRC32 of the 30
 * random characters before them, so a scanner can tell a real token from a look-alike without asking anyone
 * (https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/,
 * https://github.blog/2021-09-23-announcing-npms-new-access-token-format/).
 */

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]!;
  return (crc ^ 0xffffffff) >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62, left-padded with `0` to `width`. */
export function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

/** The 6-character checksum of a token body (the random part). */
export function tokenChecksum(body: string): string {
  return base62(crc32(body), 6);
}

/**
 * True when `token` (`<prefix>_<30 random><6 checksum>`) carries a valid checksum. The prefix is everything up to the
 * last `_`.
 */
export function hasValidTokenChecksum(token: string): boolean {
  const payload = token.slice(token.lastIndexOf('_') + 1);
  if (payload.length !== 36) return false;
  return tokenChecksum(payload.slice(0, 30)) === payload.slice(30);
}

/**
 * Cloudflare's scannable credentials (`cfk_`, `cfut_`, `cfat_`): 40 random characters, then the CRC32 of those 40 as 8
 * lowercase hex digits (https://developers.cloudflare.com/fundamentals/api/get-started/token-formats/ documents "40
 * characters and a checksum"; the algorithm was checked against a published token).
 */
export function cloudflareChecksum(body: string): string {
  return crc32(body).toString(16).padStart(8, '0');
}

export function hasValidCloudflareChecksum(token: string): boolean {
  const payload = token.slice(token.indexOf('_') + 1);
  return payload.length === 48 && cloudflareChecksum(payload.slice(0, 40)) === payload.slice(40);
}
