import { SpanCollector, type MappedSpan } from "../spans/span-collector.js";
import { SpanMapper } from "../spans/mapper.js";
import type { TraceEvent } from "../spans/span-model.js";

/**
 * A mapper writing to a collector, fed events of run `run_1` one millisecond apart from 1000 on;
 * `span(name)` finds a mapped span by name.
 */
export function mapping() {
  const sink = new SpanCollector();
  const mapper = new SpanMapper(sink, { name: "unit" }, { captureContent: false, maxContentChars: 100 });
  let ts = 1000;
  /** `runId: null` stands for an event outside any run. */
  const feed = (kind: string, data: unknown, runId: string | null = "run_1") =>
    mapper.handle({ kind, ts: ts++, runId: runId ?? undefined, data } as TraceEvent);
  const span = (name: string): MappedSpan => sink.spans.find((s) => s.name === name)!;
  return { sink, mapper, feed, span };
}

/** The data of a run's events as the engine emits them, with the fewest fields the mapping reads. */
export const start = { runId: "run_1", input: "hi", model: "m", resumed: false };
export const request = {
  system: "",
  model: "m",
  maxTokens: 0,
  stream: false,
  messageCount: 0,
  toolCount: 0,
  prefixKey: "k",
  request: { model: "m", messages: [], tools: [] },
};
export const reply = {
  response: { content: [] },
  provider: "p",
  model: "m",
  usage: { inputTokens: 1, outputTokens: 1 },
  stopReason: "end_turn",
  durationMs: 1,
};
export const call = (id: string, name = "search") => ({ id, name, input: {} });
export const ended = (id: string, outcome = "executed", extra: object = {}) => ({
  toolCall: call(id),
  result: { toolCallId: id, name: "search", content: "ok", isError: outcome !== "executed" },
  durationMs: 1,
  outcome,
  ...extra,
});
