import { CodeWriter, op, type WasmMemory, wasmApi, wasmModule } from './wasm-code.js';

/**
 * `UnitBytes.of`'s loop over a block of UTF-8 that is not all ASCII, in WebAssembly: a unit per UTF-16 unit of the
 * decoded text (an ASCII byte as itself, then 0x82, 0x83, or 0x84 and 0x85 for a two-, three- or four-byte sequence),
 * and the byte offset of every unit whose index is a multiple of 1,024, as `UnitBytes.of` writes them in JavaScript;
 * ASCII four bytes at a time. Only each sequence's first byte is read, so a block may end inside a sequence. In V8's
 * optimized JavaScript the same loop took about 0.6 ns a byte of the npm corpus's non-ASCII files, each byte's read and
 * write bounds-checked, and a third of it was the copy of its ASCII blocks.
 */

/** Bytes of text copied in per call at most: three bytes per unit of a block of 2,048 units, and a sequence's rest. */
export const UNIT_INPUT = 3 * 2048 + 8;
const RESULT = 64;
const INPUT = 1024;
const OUTPUT = INPUT + UNIT_INPUT + 64;
const STEPS = OUTPUT + UNIT_INPUT + 64;
/** Units to a kept offset (`UnitBytes`' `STEP_SHIFT`). */
const STEP_MASK = 1023;

// Parameters, then locals.
const P = 0; // the address read
const END = 1; // the end of the bytes copied in
const U = 2; // the index of the next unit, in the whole text
const STOP = 3; // the index of the unit to stop before
const BASE = 4; // the whole text's byte offset of address 0
const PARAMS = 5;
const Q = 5; // the address of the next unit written
const AT = 6; // the address of the next kept offset written
const WORD = 7;
const LOCALS = 3;

/** A kept offset (the byte offset `P + BASE`) written when unit `U` is a step's first. */
function keepStep(code: CodeWriter): void {
  code.emit(op.get(U), op.const(STEP_MASK), op.and, op.eqz, op.if);
  code.emit(op.get(AT), op.get(P), op.get(BASE), op.add, op.store(0), op.get(AT), op.const(4), op.add, op.set(AT));
  code.emit(op.end);
}

function add(code: CodeWriter, local: number, value: number): void {
  code.emit(op.get(local), op.const(value), op.add, op.set(local));
}

/**
 * `units(p, end, u, stop, base)`: the units of the bytes from address `p` on, until `end` or unit `stop`; stores
 * where it stopped (address read, unit index, address of the next unit written and of the next kept offset) at
 * `RESULT`, and returns the address read.
 */
export function unitLoopModule(): Uint8Array<ArrayBuffer> {
  const code = new CodeWriter();
  code.emit(op.const(OUTPUT), op.set(Q), op.const(STEPS), op.set(AT));
  code.emit(op.block, op.loop, op.get(P), op.get(END), op.geU, op.get(U), op.get(STOP), op.geU, op.or, op.brIf(1));
  keepStep(code);
  // Four ASCII bytes at once where no step starts among the next three units.
  code.emit(op.block, op.get(U), op.const(STEP_MASK), op.and, op.const(STEP_MASK - 3), op.gtU, op.brIf(0));
  code.emit(op.get(STOP), op.get(U), op.sub, op.const(4), op.ltU, op.brIf(0));
  code.emit(op.get(END), op.get(P), op.sub, op.const(4), op.ltU, op.brIf(0));
  code.emit(op.get(P), op.load32(0), op.tee(WORD), op.const(0x80808080 | 0), op.and, op.brIf(0));
  code.emit(op.get(Q), op.get(WORD), op.store(0));
  add(code, P, 4);
  add(code, Q, 4);
  add(code, U, 4);
  code.emit(op.br(1), op.end);
  // One sequence.
  code.emit(op.get(P), op.load8(0), op.tee(WORD), op.const(0x80), op.ltU, op.if);
  code.emit(op.get(Q), op.get(WORD), op.store8(0));
  add(code, P, 1);
  code.emit(op.else, op.get(WORD), op.const(0xe0), op.ltU, op.if);
  code.emit(op.get(Q), op.const(0x82), op.store8(0));
  add(code, P, 2);
  code.emit(op.else, op.get(WORD), op.const(0xf0), op.ltU, op.if);
  code.emit(op.get(Q), op.const(0x83), op.store8(0));
  add(code, P, 3);
  code.emit(op.else, op.get(Q), op.const(0x84), op.store8(0));
  add(code, P, 4);
  add(code, Q, 1);
  add(code, U, 1);
  // The low surrogate's kept offset is past the whole sequence.
  keepStep(code);
  code.emit(op.get(Q), op.const(0x85), op.store8(0));
  code.emit(op.end, op.end, op.end);
  add(code, Q, 1);
  add(code, U, 1);
  code.emit(op.br(0), op.end, op.end);
  code.emit(op.const(RESULT), op.get(P), op.store(0), op.const(RESULT), op.get(U), op.store(4));
  code.emit(op.const(RESULT), op.get(Q), op.store(8), op.const(RESULT), op.get(AT), op.store(12), op.get(P), op.end);
  return wasmModule('units', PARAMS, LOCALS, code.bytes);
}

type Units = (p: number, end: number, u: number, stop: number, base: number) => number;

/** What one call gave: the next byte and unit, and the units and kept offsets written. */
export interface UnitRun {
  readonly next: number;
  readonly unit: number;
  readonly units: Uint8Array;
  readonly steps: Int32Array;
}

/** The loop in a module instance of its own (one a thread, made at its first non-ASCII block). */
export class WasmUnitLoop {
  private static made: WasmUnitLoop | null | undefined;
  private readonly units: Units;
  private readonly bytes: Uint8Array;
  private readonly result: Int32Array;
  private readonly memory: ArrayBuffer;

  /** `null` where this Node runs no WebAssembly (`--jitless`): `UnitBytes.of` then runs its JavaScript loop. */
  static get(): WasmUnitLoop | null {
    if (WasmUnitLoop.made === undefined)
      WasmUnitLoop.made = wasmApi === undefined ? null : new WasmUnitLoop(new wasmApi.Module(unitLoopModule()));
    return WasmUnitLoop.made;
  }

  private constructor(module: object) {
    const { exports } = new wasmApi!.Instance(module, {});
    this.units = exports.units as Units;
    this.memory = (exports.memory as WasmMemory).buffer;
    this.bytes = new Uint8Array(this.memory);
    this.result = new Int32Array(this.memory, RESULT, 4);
  }

  /**
   * The units of `bytes` from byte `from` (unit `unit`) on, until the bytes end or unit `stop` (at most 2,048 units
   * on): valid until the next call.
   */
  run(bytes: Uint8Array, from: number, unit: number, stop: number): UnitRun {
    const end = Math.min(bytes.length, from + UNIT_INPUT);
    this.bytes.set(bytes.subarray(from, end), INPUT);
    this.units(INPUT, INPUT + end - from, unit, stop, from - INPUT);
    const [next, at, written, steps] = this.result as unknown as [number, number, number, number];
    return {
      next: next - INPUT + from,
      unit: at,
      units: this.bytes.subarray(OUTPUT, written),
      steps: new Int32Array(this.memory, STEPS, (steps - STEPS) >> 2),
    };
  }
}
