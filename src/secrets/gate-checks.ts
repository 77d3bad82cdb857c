/**
 * Gates with a check in code ahead of their regex, for keywords found everywhere (`.`): on such a keyword even one
 * sticky regex test per hit costs more than the rest of the scan of ordinary text, while a look at two or three
 * characters around the hit turns nearly every hit down. The check may read before the hit as well as after it; it
 * must hold for at least one keyword hit of every match (the samples test proves it never hides a match sample).
 */
export type HitCheck = (text: string, after: number) => boolean;
/**
 * The same check over a UTF-8 file's bytes: the byte prefilter uses it to pass over hits before any text is decoded
 * (see `hit-regions.ts`). It must accept every hit the string check does: it accepts on ASCII bytes only, and every
 * byte of a multi-byte character is 0x80 or more, as the character is in the string.
 */
export type ByteHitCheck = (bytes: Uint8Array, after: number) => boolean;

const checks = new WeakMap<RegExp, { text?: HitCheck; bytes?: ByteHitCheck }>();

/**
 * `gate`, whose regex runs only after a keyword hit that `check` accepts; `byteCheck`, where given, turns hits down
 * before any text is decoded. Each is written for its input (a call through a shared reader of either was not
 * inlined, and the string scan of every `.` paid for it).
 */
export function checkedGate(gate: RegExp, check: HitCheck | undefined, byteCheck?: ByteHitCheck): RegExp {
  checks.set(gate, { ...(check ? { text: check } : {}), ...(byteCheck ? { bytes: byteCheck } : {}) });
  return gate;
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
