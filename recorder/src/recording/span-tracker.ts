import { randomBytes } from "node:crypto";
import type { AnyHookContext } from "@harnessx/core";

/** Span ids: 16 hex characters like OpenTelemetry's, from a random per-process prefix and a counter. */
const prefix = randomBytes(4).toString("hex");
let counter = 0;
export function newSpanId(): string {
  counter = (counter + 1) >>> 0;
  return prefix + counter.toString(16).padStart(8, "0");
}

export interface SpanPlacement {
  spanId: string | null;
  parentSpanId: string | null;
}

interface OpenSpan {
  id: string;
  parent: string | null;
  /** Tool call id of a tool span; undefined for the model-call span. */
  toolCallId?: string;
}

/**
 * Nests a run's events: run span > model-call span (LLM_REQUEST..LLM_RESPONSE or a provider
 * ERROR) and tool-call spans (TOOL_CALL_START..TOOL_CALL_END, per toolCall.id). Point events
 * get no span of their own and hang under the innermost open span.
 */
export class SpanTracker {
  private readonly open: OpenSpan[] = [];

  constructor(readonly runSpanId: string) {}

  place(event: AnyHookContext): SpanPlacement {
    switch (event.event) {
      case "agent_start":
      case "agent_end":
        if (event.event === "agent_end") this.open.length = 0;
        return { spanId: this.runSpanId, parentSpanId: null };
      case "llm_request": {
        this.closeModelSpan();
        const span: OpenSpan = { id: newSpanId(), parent: this.runSpanId };
        this.open.push(span);
        return { spanId: span.id, parentSpanId: span.parent };
      }
      case "llm_response":
        return this.closeModelSpan() ?? { spanId: null, parentSpanId: this.innermost() };
      case "tool_call_start": {
        const span: OpenSpan = { id: newSpanId(), parent: this.runSpanId, toolCallId: event.data.toolCall.id };
        this.open.push(span);
        return { spanId: span.id, parentSpanId: span.parent };
      }
      case "tool_call_end": {
        const index = this.open.findIndex((s) => s.toolCallId === event.data.toolCall.id);
        if (index < 0) return { spanId: newSpanId(), parentSpanId: this.runSpanId }; // denied or invalid: never started
        const [span] = this.open.splice(index, 1);
        return { spanId: span.id, parentSpanId: span.parent };
      }
      case "error":
        if (event.data.source === "provider") {
          const closed = this.closeModelSpan();
          if (closed) return { spanId: null, parentSpanId: closed.spanId };
        }
        return { spanId: null, parentSpanId: this.innermost() };
      default:
        return { spanId: null, parentSpanId: this.innermost() };
    }
  }

  /** Parent for the recorder's own events. */
  innermost(): string {
    return this.open.length ? this.open[this.open.length - 1].id : this.runSpanId;
  }

  private closeModelSpan(): SpanPlacement | undefined {
    const index = this.open.findIndex((s) => s.toolCallId === undefined);
    if (index < 0) return undefined;
    const [span] = this.open.splice(index, 1);
    return { spanId: span.id, parentSpanId: span.parent };
  }
}
