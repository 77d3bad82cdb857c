import { isMap, isScalar, parseAllDocuments } from 'yaml';

/**
 * Kubernetes Secret manifests keep their values base64-encoded under `data:`, where no rule can see them. This finds
 * those values so the scanner can scan what they decode to and report at the encoded value. `stringData:` is plain
 * text and needs nothing.
 */

export interface EncodedSecretValue {
  /** The key under `data:` (`password`, `tls.key`, `.dockerconfigjson`). */
  readonly key: string;
  /** What the value decodes to. Only in memory. */
  readonly decoded: string;
  /** Offsets of the encoded value in the manifest text. */
  readonly start: number;
  readonly end: number;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Decoded text people put in Secrets; anything else (binary keystores, control bytes) is left alone. */
const PRINTABLE = /^[\t\n\r\x20-\x7e\u00a0-\uffff]+$/;

/** A top-level `kind: Secret` line; nothing else (an OpenAPI spec that mentions Secrets) is parsed. */
const SECRET_KIND = /^kind:[ \t]*["']?Secret["']?[ \t]*(?:#.*)?$/m;

/** Whether a file at this path may be a Kubernetes manifest (`.yaml`, `.yml`). */
export function isManifestPath(path: string): boolean {
  return /\.ya?ml$/i.test(path);
}

/** Cheap test before parsing, for a text at a manifest path: most YAML files are not Secrets. */
export function mayHoldKubernetesSecret(text: string): boolean {
  return text.includes('data:') && SECRET_KIND.test(text);
}

export function kubernetesSecretValues(text: string): EncodedSecretValue[] {
  const out: EncodedSecretValue[] = [];
  let documents: ReturnType<typeof parseAllDocuments>;
  try {
    documents = parseAllDocuments(text);
  } catch {
    return out;
  }
  if (!Array.isArray(documents)) return out;
  for (const document of documents) {
    if (document.errors.length > 0 || !isMap(document.contents)) continue;
    if (document.get('kind') !== 'Secret') continue;
    const data = document.get('data', true);
    if (!isMap(data)) continue;
    for (const pair of data.items) {
      const { key, value } = pair;
      if (!isScalar(key) || !isScalar(value) || typeof value.value !== 'string' || !value.range) continue;
      const decoded = decodeBase64Text(value.value);
      if (decoded === undefined) continue;
      const [from, to] = value.range;
      // Quoted scalars: point at the value inside the quotes.
      const quoted = value.type === 'QUOTE_DOUBLE' || value.type === 'QUOTE_SINGLE' ? 1 : 0;
      out.push({ key: String(key.value), decoded, start: from + quoted, end: to - quoted });
    }
  }
  return out;
}

function decodeBase64Text(encoded: string): string | undefined {
  const compact = encoded.replace(/\s+/g, '');
  if (compact.length < 4 || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  const decoded = Buffer.from(compact, 'base64').toString('utf8');
  if (decoded.includes('\uFFFD') || !PRINTABLE.test(decoded)) return undefined;
  return decoded;
}

/** The text to scan for one decoded value: a multi-line value as a file of its own, a one-liner as `key=value`. */
export function decodedScanInput(value: EncodedSecretValue): { text: string; path: string } {
  if (value.decoded.includes('\n') || value.decoded.trimStart().startsWith('{')) {
    return { text: value.decoded, path: `kubernetes-secret/${value.key.replace(/[^A-Za-z0-9._-]/g, '_')}` };
  }
  return { text: `${value.key}=${value.decoded}\n`, path: 'kubernetes-secret.env' };
}
