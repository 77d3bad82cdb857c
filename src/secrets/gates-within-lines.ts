import { gateReadOf } from './ascii-reach.js';
import type { CompiledRule } from './compiled-rule.js';

/**
 * Whether a scan that reads a hit's gates from whole lines around it (`byte-scan.ts`) decides as the whole text does:
 * false when some rule's gate regex is not analysed (`gateReach` is -1) or may read past the end of the line after a
 * line feed (`crossesLine`, which a tile of whole lines could not see).
 */
export function gatesReadWithinLines(compiled: readonly CompiledRule[]): boolean {
  const analysed = new Set<RegExp>();
  for (const item of compiled) {
    const gate = item.outline.gate;
    if (gate === undefined || analysed.has(gate)) continue;
    analysed.add(gate);
    const read = gateReadOf(gate);
    if (read.reach === -1 || read.crossesLine) return false;
  }
  return true;
}
