import type { AnyHookContext } from "@harnessx/core/extension";
import { spanRoleOf } from "../format/event-codec.js";

export interface SpanPlacement {
  spanId: string | null;
  parentSpanId: string | null;
}

/**
 * Where an event goes in the recording's span tree, from the span core stamped on it (the same
 * ids the live exporters use): a span event carries its span's id and parent; a point event
 * (a retry, an error, a custom event) has no span of its own and names the span it happened in.
 */
export function placeEvent(event: AnyHookContext): SpanPlacement {
  const span = event.span;
  if (!span) return { spanId: null, parentSpanId: null };
  // The events that open or close a span carry its id; every other event hangs under one.
  if (spanRoleOf(event.event) !== undefined) return { spanId: span.spanId, parentSpanId: span.parentSpanId ?? null };
  return { spanId: null, parentSpanId: span.spanId };
}
