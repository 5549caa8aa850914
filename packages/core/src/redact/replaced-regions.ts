import type { Span } from "./detector.js";

/**
 * Keyed spans found in a text where secret shapes were already replaced, kept clear of those
 * replacements: a value inside one is hidden already and dropped ("token [REDACTED:github]" reads
 * the value `[REDACTED:github` once the prose's closing bracket is trimmed, and replacing it left
 * `[REDACTED]]`); a value that begins inside one keeps what follows it; a value that ends inside
 * one takes it whole. A replacement is never cut in two.
 */
export function clearOfReplaced(keyed: readonly Span[], regions: ReadonlyArray<readonly [number, number]>): Span[] {
  const clear: Span[] = [];
  for (const span of keyed) {
    let { start, end } = span;
    for (const [from, to] of regions) {
      if (to <= start || from >= end) continue;
      // A value wholly inside a region ends up empty: its start moves to the region's end, and so does its end.
      if (start >= from) start = to;
      if (end < to) end = to;
    }
    if (end > start) clear.push({ ...span, start, end });
  }
  return clear;
}
