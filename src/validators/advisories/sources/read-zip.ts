import { inflateRawSync } from 'node:zlib';

/**
 * The entries of a ZIP archive (PKWARE APPNOTE 6.3.10 §4.3), read from the central directory, ZIP64 included (OSV's
 * npm export holds more than 65,535 files). Stored and deflated entries only, which is what OSV's exports use.
 */
export class ZipError extends Error {
  override name = 'ZipError';
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function findEndOfCentralDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipError('no end-of-central-directory record (not a ZIP file, or truncated)');
}

export interface ZipEntry {
  name: string;
  read(): Buffer;
}

export function zipEntries(zip: Buffer): ZipEntry[] {
  const end = findEndOfCentralDirectory(zip);
  let count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  if (end >= 20 && zip.readUInt32LE(end - 20) === ZIP64_LOCATOR) {
    const record = Number(zip.readBigUInt64LE(end - 20 + 8));
    if (zip.readUInt32LE(record) !== ZIP64_EOCD) throw new ZipError('broken ZIP64 end-of-central-directory record');
    count = Number(zip.readBigUInt64LE(record + 32));
    offset = Number(zip.readBigUInt64LE(record + 48));
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new ZipError(`central directory entry ${index} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    let compressedSize = zip.readUInt32LE(at + 20);
    let size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    let localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    // ZIP64 extra field (id 0x0001): the 64-bit values of those that were 0xFFFFFFFF, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = zip.readUInt16LE(extra);
      const length = zip.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        if (size === 0xffffffff) {
          size = Number(zip.readBigUInt64LE(field));
          field += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(zip.readBigUInt64LE(field));
          field += 8;
        }
        if (localOffset === 0xffffffff) localOffset = Number(zip.readBigUInt64LE(field));
      }
      extra += 4 + length;
    }
    at = extraEnd + commentLength;
    const entryCompressed = compressedSize;
    const entryOffset = localOffset;
    entries.push({
      name,
      read() {
        if (zip.readUInt32LE(entryOffset) !== LOCAL) throw new ZipError(`${name}: local header is damaged`);
        const start = entryOffset + 30 + zip.readUInt16LE(entryOffset + 26) + zip.readUInt16LE(entryOffset + 28);
        const data = zip.subarray(start, start + entryCompressed);
        if (method === 0) return data;
        if (method === 8) return inflateRawSync(data);
        throw new ZipError(`${name}: compression method ${method} is not supported (expected stored or deflate)`);
      },
    });
  }
  return entries;
}
