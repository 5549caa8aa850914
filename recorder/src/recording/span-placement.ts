import type { AnyHookContext, HookEvent } from "@harnessx/core/extension";

export interface SpanPlacement {
  spanId: string | null;
  parentSpanId: string | null;
}

/** The events that open or close a span: they carry its id; every other event hangs under one. */
const SPAN_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  "agent_start",
  "agent_end",
  "llm_request",
  "llm_response",
  "tool_call_start",
  "tool_call_end",
]);

/**
 * Where an event goes in the recording's span tree, from the span core stamped on it (the same
 * ids the live exporters use): a span event carries its span's id and parent; a point event
 * (a retry, an error, a custom event) has no span of its own and names the span it happened in.
 */
export function placeEvent(event: AnyHookContext): SpanPlacement {
  const span = event.span;
  if (!span) return { spanId: null, parentSpanId: null };
  if (SPAN_EVENTS.has(event.event)) return { spanId: span.spanId, parentSpanId: span.parentSpanId ?? null };
  return { spanId: null, parentSpanId: span.spanId };
}
