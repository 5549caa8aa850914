import { createHash } from "node:crypto";
import { Redactor } from "../redact/redactor.js";
import { redactAttributes, redactEvent, redactSpanName } from "./redacted.js";
import type { SpanRole } from "./span-context.js";
import type { Attributes, SpanClose, SpanDetail, SpanEventSpec, SpanOpen, SpanSink } from "./span-model.js";
import type { SpanKindName } from "./span-names.js";
import type { ContentBlock } from "../types/content.js";

/** A finished (or cut-off) span held in memory: what the spans table, the converters and the report read. */
export interface MappedSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** The parent span's id; absent for a trace's root span. */
  parentSpanId?: string;
  /** `invoke_agent <agent>`, `chat <model>` or `execute_tool <tool>`. */
  name: string;
  /** `CLIENT` for a model call, `INTERNAL` otherwise. */
  kind: SpanKindName;
  /** What the span stands for. */
  role: SpanRole;
  /** Start time, in ms since the epoch. */
  startMs: number;
  /** End time, in ms since the epoch; never before `startMs`, and equal to it until the span ends. */
  endMs: number;
  /** Attributes from open and close, redacted. */
  attributes: Attributes;
  /** Span events in the order they happened, their attributes redacted. */
  events: SpanEventSpec[];
  /** Set when the span failed. */
  error?: {
    /** Low-cardinality class of the failure (`error.type`). */
    type: string;
    /** What went wrong, redacted. */
    message: string;
  };
  /** What the span was made from; stripped of content when the collector is built with `keepDetail: false`. */
  detail: SpanDetail;
}

function hexId(seed: string, chars: number): string {
  return createHash("sha256").update(seed).digest("hex").slice(0, chars);
}

/**
 * Collects the mapping's spans in memory. A span keeps the ids core gave its event; events
 * recorded before span identity get ids derived from the run id and the span's order, so the
 * same recording always maps to the same ids. Text attributes and error messages pass the
 * redaction policy (a recording made with redaction off still converts safely).
 *
 * With `onSpan`, spans are handed over as they end (with the order they opened in) instead of
 * kept in `spans`, so a big recording's spans need not all be in memory at once; `flush` hands
 * over the ones that never ended (a tool call id reused before its first call ended).
 */
export class SpanCollector implements SpanSink<MappedSpan> {
  /** Every span opened, in the order they opened; stays empty with `onSpan`. */
  readonly spans: MappedSpan[] = [];
  private counter = 0;
  /** Spans opened and not yet ended, by the order they opened in (only with `onSpan`). */
  private readonly unended = new Map<MappedSpan, number>();

  /** `keepDetail: false` keeps each span's role and ids as its detail, no content (a table or file of many spans needs none). */
  constructor(
    private readonly redactor: Redactor = new Redactor(),
    private readonly keepDetail = true,
    private readonly onSpan?: (span: MappedSpan, order: number) => void,
  ) {}

  open(span: SpanOpen, parent: MappedSpan | undefined): MappedSpan {
    const runId = span.detail.role === "agent" ? span.detail.start.runId : undefined;
    const traceId = span.span?.traceId ?? parent?.traceId ?? hexId(`trace:${runId ?? this.counter}`, 32);
    const spanId = span.span?.spanId ?? hexId(`span:${traceId}:${this.counter}`, 16);
    this.counter++;
    const parentSpanId = span.span ? span.span.parentSpanId : parent?.spanId;
    const s: MappedSpan = {
      traceId,
      spanId,
      ...(parentSpanId ? { parentSpanId } : {}),
      name: redactSpanName(span.name, this.redactor),
      kind: span.kind,
      role: span.role,
      startMs: span.time,
      endMs: span.time,
      attributes: { ...redactAttributes(span.attributes, this.redactor) },
      events: [],
      detail: this.detail(span.detail),
    };
    if (this.onSpan) this.unended.set(s, this.counter - 1);
    else this.spans.push(s);
    return s;
  }

  private detail(detail: SpanDetail): SpanDetail {
    if (this.keepDetail) return detail;
    // The role and the ids the converters need (a run id, a tool call id, the calls a reply asked
    // for: Chrome's flow arrows), nothing of the content.
    if (detail.role === "agent") return { role: "agent", start: { ...detail.start, input: "" } };
    if (detail.role === "tool") return { role: "tool", toolCall: { ...detail.toolCall, input: {} } };
    const request = { ...detail.request, request: { ...detail.request.request, messages: [], system: "", tools: [] } };
    if (!detail.response) return { role: "chat", request };
    // A recording made without content has no reply blocks at all.
    const content: unknown = detail.response.response?.content;
    const calls = Array.isArray(content)
      ? (content as ContentBlock[]).flatMap((block) => (block.type === "tool_call" ? [{ ...block, input: {} }] : []))
      : [];
    return {
      role: "chat",
      request,
      response: { ...detail.response, response: { ...detail.response.response, content: calls } },
    };
  }

  /** Adds an event to the span, its attributes redacted. */
  event(handle: MappedSpan, event: SpanEventSpec): void {
    handle.events.push(redactEvent(event, this.redactor));
  }

  /** Ends the span: adds the closing attributes and error (redacted); with `onSpan`, hands it over. */
  close(handle: MappedSpan, close: SpanClose): void {
    Object.assign(handle.attributes, redactAttributes(close.attributes, this.redactor));
    handle.endMs = Math.max(handle.startMs, close.time);
    handle.detail = this.detail(close.detail);
    if (close.error) handle.error = { type: close.error.type, message: this.redactor.redactText(close.error.message) };
    const order = this.unended.get(handle);
    if (order !== undefined && this.onSpan) {
      this.unended.delete(handle);
      this.onSpan(handle, order);
    }
  }

  /** Hands over the spans that never ended, as they are (with `onSpan`; else they are in `spans`). */
  flush(): void {
    for (const [span, order] of this.unended) this.onSpan?.(span, order);
    this.unended.clear();
  }
}
