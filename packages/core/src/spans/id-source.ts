import type { SpanContext, SpanRole } from "./span-context.js";

/** A span about to open: what an id source needs to start its own span (a live OpenTelemetry span). */
export interface SpanStart {
  /** What the span stands for: a run, a model call or a tool call. */
  role: SpanRole;
  /** The span's name (`chat gpt-4o`). */
  name: string;
  /** Id of the run the span belongs to (`run_...`). */
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
  /** Called as each span opens: the ids to give it, or undefined to let core generate them. */
  open(start: SpanStart): SpanIds | undefined;
}

/** The ids a source gives a span; `parentSpanId` counts only for a run that starts under no harnessx span. */
export interface SpanIds {
  /** 32 lowercase hex digits; must be the parent's trace id when the span has a parent. */
  traceId: string;
  /** 16 lowercase hex digits, other than the parent's. */
  spanId: string;
  /** 16 lowercase hex digits: the source's own span a run starts under (e.g. an HTTP request's). */
  parentSpanId?: string;
}
