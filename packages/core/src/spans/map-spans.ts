import type { TraceEvent } from "./span-model.js";
import type { MappedSpan } from "./span-collector.js";
import { SpanStream, type MapSpansOptions } from "./span-stream.js";

/**
 * The spans of a run's events, in the order they opened: the same mapping the live exporters
 * use, fed events in order. Spans still open at the end end at the last event.
 */
export function mapSpans(events: Iterable<TraceEvent>, options: MapSpansOptions = {}): MappedSpan[] {
  const spans: MappedSpan[] = [];
  const stream = new SpanStream(options, (span, order) => {
    spans[order] = span;
  });
  for (const e of events) stream.push(e);
  stream.end();
  return spans;
}
