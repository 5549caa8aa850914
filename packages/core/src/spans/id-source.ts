import type { SpanContext, SpanRole } from "./span-context.js";

/** A span about to open: what an id source needs to start its own span (a live OpenTelemetry span). */
export interface SpanStart {
  role: SpanRole;
  /** The span's name (`chat gpt-4o`). */
  name: string;
  runId: string;
  /** The span it opens under: the run's span, or, for a run, the span active where it started. */
  parent: SpanContext | undefined;
  /** Milliseconds since the epoch. */
  time: number;
}

/**
 * Gives core the ids of the spans it opens, so that the ids a backend shows (a live OpenTelemetry
 * trace) are the ids in the recording. Answering undefined (or ids that are not W3C-shaped) lets
 * core generate them; so does a source that throws, or gives ids outside the parent's trace.
 * At most one per agent (`ctx.useSpanIds`).
 */
export interface SpanIdSource {
  open(start: SpanStart): SpanIds | undefined;
}

/** The ids a source gives a span; `parentSpanId` counts only for a run that starts under no harnessx span. */
export interface SpanIds {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}
