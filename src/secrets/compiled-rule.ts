import { gateCheckOf, type HitCheck } from './gate-checks.js';
import { LazyRule, type RuleEntry, type RuleOutline } from './lazy-rule.js';
import { type GateCheck, type NameGateShape, nameGateShape } from './name-gate.js';
import type { SecretRule } from './rule.js';
import { secretGroupNames } from './scan-results.js';

/**
 * A rule as the scanner runs it. Its two regular expressions are made the first time the rule runs: a scan triggers a
 * few of the hundreds of rules, and making every one up front was most of a short scan's set-up.
 */
export interface CompiledRule {
  /** The rule, made at first read when it is a `LazyRule`: read only once a hit's gate has passed. */
  readonly rule: SecretRule;
  /** What the scanner's set-up reads of the rule, without making it. */
  readonly outline: RuleOutline;
  readonly index: number;
  readonly block: boolean;
  readonly maxLength: number;
  /** The rule's `gate`, sticky, tested right after a keyword hit before any window is cut. */
  readonly gate: RegExp | undefined;
  /** What the gate needs after the rest of the name, checked on the hit's shared parse first (`name-gate.ts`). */
  readonly gateShape: NameGateShape | undefined;
  /** The gate's check in code, run before its regex (`gate-checks.ts`). */
  readonly gateCheck: HitCheck | undefined;
  /** The pattern's named groups that may hold the secret (`secret…`), in pattern order; with the search regex. */
  secretGroups: readonly string[];
  /** See `searchRegex` and `locateRegex`. */
  search: RegExp | undefined;
  locate: RegExp | undefined;
  /** Whether `rule` is this one's, without making a lazy rule. */
  holds(rule: SecretRule): boolean;
}

export function compileRule(entry: RuleEntry, index: number): CompiledRule {
  return new Compiled(entry, index);
}

/** One class for every rule, made or lazy: the scan's hot code reads its fields through one shape. */
class Compiled implements CompiledRule {
  readonly outline: RuleOutline;
  readonly block: boolean;
  readonly maxLength: number;
  readonly gate: RegExp | undefined;
  readonly gateShape: NameGateShape | undefined;
  readonly gateCheck: HitCheck | undefined;
  secretGroups: readonly string[] = [];
  search: RegExp | undefined = undefined;
  locate: RegExp | undefined = undefined;
  private made: SecretRule | undefined;

  constructor(
    entry: RuleEntry,
    readonly index: number,
  ) {
    this.outline = entry;
    this.made = entry instanceof LazyRule ? undefined : entry;
    this.block = entry.window === 'block';
    this.maxLength = entry.maxLength ?? 512;
    this.gate = entry.gate ? stickyGate(entry.gate) : undefined;
    this.gateShape = nameGateShape(entry.gate);
    this.gateCheck = gateCheckOf(entry.gate);
  }

  get rule(): SecretRule {
    this.made ??= (this.outline as LazyRule).rule();
    return this.made;
  }

  holds(rule: SecretRule): boolean {
    return this.made === rule;
  }
}

/**
 * Per gate, its sticky copy: hundreds of rules share a handful of gates (every provider-named rule has the same one),
 * and each use sets `lastIndex` before it tests, so one copy serves them all.
 */
const stickyGates = new WeakMap<RegExp, RegExp>();

function stickyGate(gate: RegExp): RegExp {
  let sticky = stickyGates.get(gate);
  if (sticky === undefined) {
    sticky = new RegExp(gate.source, withFlags(gate.flags.replace('g', ''), 'y'));
    stickyGates.set(gate, sticky);
  }
  return sticky;
}

/** The rule's pattern with `g`, for the exec loop in a window. */
export function searchRegex(compiled: CompiledRule): RegExp {
  if (compiled.search) return compiled.search;
  const pattern = compiled.rule.pattern;
  compiled.secretGroups = secretGroupNames(pattern);
  compiled.search = new RegExp(pattern.source, withFlags(pattern.flags.replace(/[dy]/g, ''), 'g'));
  return compiled.search;
}

/** The same with `y` and `d`: run at a match's start, it gives the same match with its groups' offsets. */
export function locateRegex(compiled: CompiledRule): RegExp {
  const pattern = compiled.rule.pattern;
  compiled.locate ??= new RegExp(pattern.source, withFlags(pattern.flags.replace('g', ''), 'dy'));
  return compiled.locate;
}

function withFlags(flags: string, extra: string): string {
  let out = flags;
  for (const flag of extra) if (!out.includes(flag)) out += flag;
  return out;
}

/**
 * Whether `compiled`'s window opens at a keyword hit ending at `after`: its gate check and its gate pass right there
 * (`gates` reads the same `text`). `shaped` when the caller has already found that the gate's shape allows the hit
 * (its bit in a shape mask, `shape-masks.ts`, read on the same text and parse), so it is not asked again.
 * The scan and output masking's pre-check (`opens-window.ts`) decide alike through this.
 */
export function opensAt(
  compiled: CompiledRule,
  text: string,
  after: number,
  gates: GateCheck,
  shaped = false,
): boolean {
  const { gateCheck, gateShape } = compiled;
  // A gate with a name-gate shape has its check asked after the shape's table look-up (`GateCheck.passes`).
  if (gateCheck !== undefined && gateShape === undefined && !gateCheck(text, after)) return false;
  return compiled.gate === undefined || gates.passes(compiled.gate, gateShape, after, gateCheck, shaped);
}
