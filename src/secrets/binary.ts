/** Bytes looked at when deciding whether a file is text, as git does (first 8000 bytes, any NUL means binary). */
const SNIFF_BYTES = 8000;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Extensions whose content is never text worth scanning, skipped without reading. */
const BINARY_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'ico',
  'bmp',
  'tiff',
  'pdf',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'jar',
  'war',
  'class',
  'so',
  'dylib',
  'dll',
  'exe',
  'o',
  'a',
  'wasm',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'mp3',
  'mp4',
  'mov',
  'avi',
  'webm',
  'ogg',
  'wav',
  'flac',
  'psd',
  'sqlite',
  'db',
  'bin',
  'pyc',
  'node',
  'icc',
  'bcmap',
  'pfb',
]);

export function hasBinaryExtension(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot >= 0 && BINARY_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}
