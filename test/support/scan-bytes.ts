/**
 * The bytes the byte scan reads for a text, as its byte checks (`HitBytesTest`) see them: ASCII as itself, any other
 * code unit as one byte past ASCII, which those checks treat alike. The tests that hold a byte check equal to its
 * string form compare the two on a text and on this.
 */
export const bytesOf = (text: string): Buffer => Buffer.from(text.replace(/[^\x00-\x7f]/g, '\x80'), 'latin1');
