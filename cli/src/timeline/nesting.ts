import type { RecordedEvent } from "@harnessx/recorder";

/** Nesting depth of each event: a span's events sit at the span's depth, point events one deeper. */
export function depthsOf(events: readonly RecordedEvent[]): number[] {
  const parentOf = new Map<string, string | null>();
  for (const e of events) if (e.spanId !== null && e.spanId !== undefined && !parentOf.has(e.spanId)) parentOf.set(e.spanId, e.parentSpanId ?? null);
  const depthCache = new Map<string, number>();
  const spanDepth = (id: string): number => {
    const cached = depthCache.get(id);
    if (cached !== undefined) return cached;
    let depth = 0;
    let cursor = parentOf.get(id) ?? null;
    const seen = new Set<string>([id]);
    while (cursor !== null && !seen.has(cursor)) {
      seen.add(cursor);
      depth++;
      cursor = parentOf.get(cursor) ?? null;
    }
    depthCache.set(id, depth);
    return depth;
  };
  return events.map((e) => {
    if (e.spanId) return spanDepth(e.spanId);
    return e.parentSpanId ? spanDepth(e.parentSpanId) + 1 : 0;
  });
}

/** The span an event belongs to: its own, or the one it hangs under. */
export function owningSpan(event: RecordedEvent): string | null {
  return event.spanId ?? event.parentSpanId ?? null;
}
