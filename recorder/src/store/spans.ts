import type { RecordedEvent } from "../format/event.js";

/** A span rebuilt from its opening and closing events. */
export interface RecordedSpan {
  runId: string;
  spanId: string;
  parentSpanId: string | null;
  kind: "run" | "model" | "tool";
  /** Agent name, model name or tool name. */
  name: string;
  startTs: number;
  /** Null while the span is open (run still going, or crashed inside it). */
  endTs: number | null;
  /** "ok", "error" (failed run, provider error, failed tool call) or "open". */
  status: "ok" | "error" | "open";
  inputTokens: number | null;
  outputTokens: number | null;
  /** Events that carry this span id or hang under it. */
  events: number;
  /** Attributes of the opening event merged with those of the closing one. */
  attrs: Record<string, unknown>;
}

const OPENERS: Record<string, RecordedSpan["kind"]> = { agent_start: "run", llm_request: "model", tool_call_start: "tool", tool_call_end: "tool" };

/** Spans of the events (any runs), in the order they opened. */
export function buildSpans(events: Iterable<RecordedEvent>): RecordedSpan[] {
  const spans = new Map<string, RecordedSpan>();
  for (const e of events) {
    const id = e.spanId;
    const attrs = e.attrs ?? {};
    if (id) {
      let span = spans.get(id);
      if (!span && OPENERS[e.kind]) {
        span = {
          runId: e.runId,
          spanId: id,
          parentSpanId: e.parentSpanId,
          kind: OPENERS[e.kind],
          name: String(e.kind === "agent_start" ? attrs.agent : e.kind === "llm_request" ? attrs.model : attrs.toolName),
          startTs: e.ts,
          endTs: null,
          status: "open",
          inputTokens: null,
          outputTokens: null,
          events: 0,
          attrs: {},
        };
        spans.set(id, span);
      }
      if (!span) continue;
      span.events++;
      span.attrs = { ...span.attrs, ...attrs };
      close(span, e);
    } else if (e.parentSpanId) {
      const parent = spans.get(e.parentSpanId);
      if (parent) {
        parent.events++;
        if (e.kind === "error" && attrs.source === "provider" && parent.kind === "model") {
          parent.endTs = e.ts;
          parent.status = "error";
        }
      }
    }
  }
  return [...spans.values()];
}

function close(span: RecordedSpan, e: RecordedEvent): void {
  const attrs = e.attrs ?? {};
  if (e.kind === "agent_end") {
    span.endTs = e.ts;
    span.status = attrs.status === "completed" ? "ok" : "error";
    span.inputTokens = Number(attrs.inputTokens) || 0;
    span.outputTokens = Number(attrs.outputTokens) || 0;
  } else if (e.kind === "llm_response") {
    span.endTs = e.ts;
    span.status = "ok";
    span.inputTokens = Number(attrs.inputTokens) || 0;
    span.outputTokens = Number(attrs.outputTokens) || 0;
  } else if (e.kind === "tool_call_end") {
    span.endTs = e.ts;
    span.status = attrs.outcome === "executed" && !attrs.isError ? "ok" : "error";
  }
}
