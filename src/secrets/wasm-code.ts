/**
 * Just enough of WebAssembly's binary format to write one small module by hand: a function's instructions as bytes
 * (`op`), and a module of one exported function over one exported memory (`wasmModule`). No tool is needed at build
 * time and no binary is checked in: the module is written from these instructions when a scanning thread first needs
 * it (`keyword-wasm.ts`).
 */

/** An instruction: its bytes. */
export type Code = readonly number[];

/** Unsigned LEB128. */
export function uleb(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)) {
      out.push(low);
      return out;
    }
    out.push(low | 0x80);
  }
}

/** The i32 instructions the keyword and unit loops use. `offset` is a load's or store's constant added to its address. */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  else: [0x05],
  end: [0x0b],
  br: (depth: number): Code => [0x0c, ...uleb(depth)],
  brIf: (depth: number): Code => [0x0d, ...uleb(depth)],
  get: (local: number): Code => [0x20, ...uleb(local)],
  set: (local: number): Code => [0x21, ...uleb(local)],
  tee: (local: number): Code => [0x22, ...uleb(local)],
  load8: (offset: number): Code => [0x2d, 0, ...uleb(offset)],
  load16: (offset: number): Code => [0x2f, 1, ...uleb(offset)],
  load32: (offset: number): Code => [0x28, 2, ...uleb(offset)],
  store: (offset: number): Code => [0x36, 2, ...uleb(offset)],
  store8: (offset: number): Code => [0x3a, 0, ...uleb(offset)],
  const: (value: number): Code => [0x41, ...sleb(value)],
  eqz: [0x45],
  eq: [0x46],
  ne: [0x47],
  ltU: [0x49],
  gtU: [0x4b],
  geU: [0x4f],
  add: [0x6a],
  sub: [0x6b],
  and: [0x71],
  or: [0x72],
  shl: [0x74],
  /** `memory.copy` (bulk memory, in every Node this package supports): destination, source, length. */
  copy: [0xfc, 0x0a, 0, 0],
} as const;

/** Instructions gathered in order. */
export class CodeWriter {
  readonly bytes: number[] = [];

  emit(...codes: Code[]): void {
    for (const code of codes) for (const byte of code) this.bytes.push(byte);
  }
}

const I32 = 0x7f;

function section(id: number, payload: readonly number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

function name(text: string): number[] {
  return [...uleb(text.length), ...[...text].map((char) => char.charCodeAt(0))];
}

/**
 * A module of one function `name` taking `params` i32 values and returning one, with `locals` more i32 locals and
 * `body` (its instructions, the final `end` included), and one memory of `pages` pages to start, exported as `memory`.
 */
export function wasmModule(
  exported: string,
  params: number,
  locals: number,
  body: readonly number[],
  pages = 1,
): Uint8Array<ArrayBuffer> {
  const code = [1, ...uleb(locals), I32, ...body];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [1, 0x60, ...uleb(params), ...new Array<number>(params).fill(I32), 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...uleb(pages)]),
    ...section(7, [2, ...name(exported), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...uleb(code.length), ...code]),
  ]);
}

/** What the modules' users take of the `WebAssembly` global (the build's libraries declare none). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export interface WasmApi {
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}
/** The `WebAssembly` global, absent under `--jitless`: its users then run their JavaScript loops. */
export const wasmApi = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
