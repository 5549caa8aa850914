import type { Redactor } from "@harnessx/core";
import { DEFAULT_MAX_CONTENT_CHARS, SpanTracker, type TracedAgent } from "../mapping/index.js";
import { MemorySink, type MemorySpan } from "./memory-sink.js";
import { normalizeRecording, type RecordedEvent } from "./recorded-event.js";

export interface ConvertOptions {
  /** Agent facts the events do not carry. Default name "agent"; provider from the first reply. */
  agent?: Partial<TracedAgent>;
  /** Include prompts, replies, tool arguments and results (as the live extension's `captureContent`). Default false. */
  captureContent?: boolean;
  /** Longest string kept per content part. Default 8192. */
  maxContentChars?: number;
  /** Applied to every text attribute and error; default the default policy (recordings are redacted at the source already). */
  redactor?: Redactor;
}

export interface ConvertedSpans {
  spans: MemorySpan[];
  /** Hook events left out for lack of a payload. */
  skipped: number;
}

/**
 * The spans the live OpenTelemetryExtension would have produced for the
 * recorded runs: the same mapping, fed recorded events instead of hooks.
 * Spans still open at the end of the recording end at its last event.
 */
export function spansFromRecording(source: Iterable<RecordedEvent>, options: ConvertOptions = {}): ConvertedSpans {
  const { events, skipped } = normalizeRecording(source);
  const firstReply = events.find((e) => e.kind === "llm_response")?.data as { provider?: unknown } | undefined;
  const provider = options.agent?.provider ?? (typeof firstReply?.provider === "string" ? firstReply.provider : undefined);
  const info: TracedAgent = {
    name: options.agent?.name ?? "agent",
    ...(options.agent?.sessionId ? { sessionId: options.agent.sessionId } : {}),
    ...(provider ? { provider } : {}),
  };
  const sink = new MemorySink(options.redactor);
  const tracker = new SpanTracker(sink, info, {
    captureContent: options.captureContent ?? false,
    maxContentChars: options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS,
  });
  for (const e of events) tracker.handle(e);
  tracker.closeAll(events.length ? events[events.length - 1].ts : 0);
  return { spans: sink.spans, skipped };
}
