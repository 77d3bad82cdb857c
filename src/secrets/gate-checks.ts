/**
 * Gates with a check in code ahead of their regex, for keywords found everywhere (`.`): on such a keyword even one
 * sticky regex test per hit costs more than the rest of the scan of ordinary text, while a look at two or three
 * characters around the hit turns nearly every hit down. The check may read before the hit as well as after it; it
 * must hold for at least one keyword hit of every match (the samples test proves it never hides a match sample).
 */
export type HitCheck = (text: string, after: number) => boolean;
/**
 * The same check over a file's bytes where each byte is one character (ASCII, Latin-1): the byte prefilter uses it
 * to pass over hits before any text is decoded (see `hit-regions.ts`). It must accept every hit the string check does.
 */
export type ByteHitCheck = (bytes: Uint8Array, after: number) => boolean;

/** Reads the code at an offset (NaN past either end, as `charCodeAt` gives): checks are written once over it. */
export type CodeAt<S> = (source: S, at: number) => number;
export const charCode: CodeAt<string> = (text, at) => text.charCodeAt(at);
export const byteCode: CodeAt<Uint8Array> = (bytes, at) => bytes[at] ?? Number.NaN;

const checks = new WeakMap<RegExp, { text: HitCheck; bytes?: ByteHitCheck }>();

/** `gate`, whose regex runs only after a keyword hit that `check` (and over bytes, `byteCheck`) accepts. */
export function checkedGate(gate: RegExp, check: HitCheck, byteCheck?: ByteHitCheck): RegExp {
  checks.set(gate, byteCheck ? { text: check, bytes: byteCheck } : { text: check });
  return gate;
}

/** A check written once over `CodeAt`, for text and for bytes. */
export function checkedGateOver(gate: RegExp, check: <S>(code: CodeAt<S>) => (source: S, after: number) => boolean) {
  return checkedGate(gate, check(charCode), check(byteCode));
}

/** The check of a gate built by `checkedGate` (by identity: the rule's own gate object). */
export function gateCheckOf(gate: RegExp | undefined): HitCheck | undefined {
  return gate === undefined ? undefined : checks.get(gate)?.text;
}

/** The byte check of a gate built by `checkedGate`, if it has one. */
export function byteGateCheckOf(gate: RegExp | undefined): ByteHitCheck | undefined {
  return gate === undefined ? undefined : checks.get(gate)?.bytes;
}

/** Per ASCII code, 1 for the characters of base64url (`A-Z a-z 0-9 _ -`). */
export const BASE64URL = (() => {
  const table = new Uint8Array(128);
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-') table[char.charCodeAt(0)] = 1;
  return table;
})();

/** Whether the UTF-16 code unit `code` is a base64url character. */
export function isBase64Url(code: number): boolean {
  return code < 128 && BASE64URL[code] === 1;
}
