import { tokenChecksum } from './checksum.js';
import type { RuleSamples } from './rule.js';

/**
 * Deterministic generators for rule samples and the quality corpus. Samples are built, never pasted, so that no real
 * or realistic token appears as a literal in tollgate's sources and tollgate can scan its own repository.
 */

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
export const URL_SAFE = `${ALPHANUMERIC}-_`;
export const BASE64 = `${ALPHANUMERIC}+/`;
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** mulberry32: small, fast, and good enough to make strings that look random. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashSeed(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/**
 * `length` characters of `alphabet`, determined by `seed`. Each character class present in the alphabet (upper,
 * lower, digit) appears at least once when the length allows, so samples never look like words or plain numbers.
 */
export function randomString(length: number, alphabet: string, seed: string | number): string {
  const next = seededRandom(typeof seed === 'number' ? seed : hashSeed(seed));
  for (;;) {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    if (looksRandom(out, alphabet)) return out;
  }
}

function looksRandom(value: string, alphabet: string): boolean {
  if (value.length < 8) return true;
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/].filter((re) => re.test(alphabet));
  if (!classes.every((re) => re.test(value))) return false;
  // No runs that a placeholder filter would flag (aaaa, xxxx) and no accidental words.
  if (
    /(.)\1\1\1/.test(value) ||
    /x{3}|example|sample|test|fake|dummy|your|redact|change|secret|token|passw|todo|fixme/i.test(value)
  ) {
    return false;
  }
  // No ascending runs (`456789`) either: the placeholder filter rejects those too.
  let ascending = 1;
  for (let i = 1; i < value.length; i++) {
    ascending = value.charCodeAt(i) === value.charCodeAt(i - 1) + 1 ? ascending + 1 : 1;
    if (ascending >= 5) return false;
  }
  return true;
}

let counter = 0;
/** A fresh seed per call site and order of calls, so two samples of the same shape differ but stay reproducible. */
function nextSeed(label: string): string {
  counter += 1;
  return `${label}#${counter}`;
}

/** Seeds per lazily made sample set: far enough apart that no two sets share one. */
const SEEDS_PER_SET = 100_000;
let sets = 0;

/**
 * Samples made by `make` when first read, once. Only the rule tests, the docs and listings read samples; making them
 * at every start cost a sixth of loading the rules (in each process and each scan worker). Each set draws its seeds
 * from its own range, fixed when it is defined, so its values do not depend on which sets were read before it.
 */
export function lazySamples(make: () => RuleSamples): RuleSamples {
  return new LazySamples(make, ++sets * SEEDS_PER_SET);
}

/**
 * One object per rule, its getters on the prototype: an object literal with four getters made five closures and
 * defined four accessors for each of the hundreds of rules at every start. The getters are not own properties, so a
 * set is copied by naming its fields, not by spreading it.
 */
class LazySamples implements RuleSamples {
  #make: (() => RuleSamples) | undefined;
  #made: RuleSamples | undefined;
  readonly #firstSeed: number;

  constructor(make: () => RuleSamples, firstSeed: number) {
    this.#make = make;
    this.#firstSeed = firstSeed;
  }

  #samples(): RuleSamples {
    if (this.#made) return this.#made;
    const outer = counter;
    counter = this.#firstSeed;
    try {
      this.#made = this.#make!();
      this.#make = undefined;
    } finally {
      counter = outer;
    }
    return this.#made;
  }

  get key(): string | undefined {
    return this.#samples().key;
  }

  get match(): readonly string[] {
    return this.#samples().match;
  }

  get ignore(): readonly string[] {
    return this.#samples().ignore;
  }

  get contexts(): RuleSamples['contexts'] {
    return this.#samples().contexts;
  }
}

/** `prefix` + `length` random characters. */
export function fakeToken(prefix: string, length: number, alphabet = ALPHANUMERIC, seed?: string | number): string {
  return prefix + randomString(length, alphabet, seed ?? nextSeed(prefix + length));
}

/** `prefix` + 30 random base62 characters + their 6-character CRC32 checksum (GitHub `ghp_`…, npm `npm_`). */
export function fakeChecksumToken(prefix: string, seed?: string | number): string {
  const body = randomString(30, ALPHANUMERIC, seed ?? nextSeed(prefix));
  return prefix + body + tokenChecksum(body);
}

/** The same shape with a wrong checksum: looks like a token, is not one. */
export function wrongChecksumToken(prefix: string, seed?: string | number): string {
  const body = randomString(30, ALPHANUMERIC, seed ?? nextSeed(`${prefix}!`));
  const good = tokenChecksum(body);
  const bad = good.slice(0, 5) + (good[5] === 'A' ? 'B' : 'A');
  return prefix + body + bad;
}

export function fakeHex(length: number, seed?: string | number): string {
  return randomString(length, HEX, seed ?? nextSeed(`hex${length}`));
}

/** A readable password of the kind people type: a word, digits and a symbol. */
export function fakeHumanPassword(seed?: string | number): string {
  const next = seededRandom(hashSeed(String(seed ?? nextSeed('human'))));
  const words = ['Maple', 'river', 'Falcon', 'orbit', 'Copper', 'lantern', 'Pebble', 'Tiger', 'violet', 'Harbor'];
  const symbols = '!#%&*?@';
  const word = words[Math.floor(next() * words.length)]!;
  const digits = String(10 + Math.floor(next() * 89));
  return word + digits + symbols[Math.floor(next() * symbols.length)];
}

export function base64Of(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function base64UrlOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** A JWT with a random signature (never a real signing key behind it). */
export function fakeJwt(claims: Record<string, unknown> = { sub: 'svc-1842', iat: 1767225600 }, seed?: string): string {
  const header = base64UrlOf(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64UrlOf(JSON.stringify(claims));
  return `${header}.${payload}.${randomString(43, URL_SAFE, seed ?? nextSeed('jwt'))}`;
}

/** A PEM block of the given label whose body is random base64 (not a usable key). */
export function fakePem(label: string, seed?: string, lines = 8): string {
  const body: string[] = [];
  for (let i = 0; i < lines; i++) body.push(randomString(64, BASE64, `${seed ?? nextSeed(label)}:${i}`));
  return `-----BEGIN ${label}-----\n${body.join('\n')}\n-----END ${label}-----`;
}
