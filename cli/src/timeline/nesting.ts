import type { RecordedEvent } from "@harnessx/recorder";

/**
 * How deep each event sits: a span's events at the span's depth, point events one deeper than
 * the span they hang under. Learns each span's parent from the first event that carries the span
 * (which comes before any event inside it), so it works on events as they are read or written.
 */
export class SpanNesting {
  private readonly parentOf = new Map<string, string | null>();
  private readonly depths = new Map<string, number>();

  /** Learns the span an event carries; call it for an event before asking its depth. */
  note(event: RecordedEvent): void {
    if (event.spanId !== null && event.spanId !== undefined && !this.parentOf.has(event.spanId))
      this.parentOf.set(event.spanId, event.parentSpanId ?? null);
  }

  depthOf(event: RecordedEvent): number {
    if (event.spanId) return this.spanDepth(event.spanId);
    return event.parentSpanId ? this.spanDepth(event.parentSpanId) + 1 : 0;
  }

  private spanDepth(id: string): number {
    const cached = this.depths.get(id);
    if (cached !== undefined) return cached;
    let depth = 0;
    let cursor = this.parentOf.get(id) ?? null;
    const seen = new Set<string>([id]);
    while (cursor !== null && !seen.has(cursor)) {
      seen.add(cursor);
      depth++;
      cursor = this.parentOf.get(cursor) ?? null;
    }
    // Cached only once the chain reaches a root: a parent not seen yet may still arrive.
    if (cursor === null || seen.has(cursor)) this.depths.set(id, depth);
    return depth;
  }
}

/** The span an event belongs to: its own, or the one it hangs under. */
export function owningSpan(event: RecordedEvent): string | null {
  return event.spanId ?? event.parentSpanId ?? null;
}
