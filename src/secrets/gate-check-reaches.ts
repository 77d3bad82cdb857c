import { gateReadOf } from './ascii-reach.js';
import type { CompiledRule } from './compiled-rule.js';
import { gateCheckReachOf } from './gate-checks.js';

/**
 * Per rule, how far past a hit its gate's check in code counts characters (see `checkedGate`), for a scan that reads
 * a UTF-8 file a byte per character; null when some rule's gate regex is not analysed (`gateReach` is -1) or may read
 * past the end of the line after a line feed (`crossesLine`, which a scan of whole-line tiles could not see): then no
 * text is read that way.
 */
export function gateCheckReaches(compiled: readonly CompiledRule[]): Float64Array | null {
  const reaches = new Float64Array(compiled.length);
  const analysed = new Map<RegExp, boolean>();
  for (const item of compiled) {
    const gate = item.outline.gate;
    if (gate === undefined) continue;
    let known = analysed.get(gate);
    if (known === undefined) {
      const read = gateReadOf(gate);
      known = read.reach !== -1 && !read.crossesLine;
      analysed.set(gate, known);
    }
    if (!known) return null;
    reaches[item.index] = gateCheckReachOf(gate);
  }
  return reaches;
}
