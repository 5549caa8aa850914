import { createHash } from "node:crypto";
import { Redactor } from "@harnessx/core";
import { redactAttributes, redactEvent, type Attributes, type SpanClose, type SpanDetail, type SpanEventSpec, type SpanKindName, type SpanOpen, type SpanRole, type SpanSink } from "../mapping/index.js";

/** A finished (or cut-off) span held in memory by the converters. */
export interface MemorySpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKindName;
  role: SpanRole;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: SpanEventSpec[];
  error?: { type: string; message: string };
  detail: SpanDetail;
}

function hexId(seed: string, chars: number): string {
  return createHash("sha256").update(seed).digest("hex").slice(0, chars);
}

/**
 * Collects spans in memory. Ids derive from the run id and the span's order,
 * so converting the same recording twice gives the same ids. Text attributes and error
 * messages pass the redaction policy (a recording made with redaction off is still converted safely).
 */
export class MemorySink implements SpanSink<MemorySpan> {
  readonly spans: MemorySpan[] = [];
  private counter = 0;

  constructor(private readonly redactor: Redactor = new Redactor()) {}

  open(span: SpanOpen, parent: MemorySpan | undefined): MemorySpan {
    const runId = span.detail.role === "agent" ? span.detail.start.runId : undefined;
    const traceId = parent ? parent.traceId : hexId(`trace:${runId ?? this.counter}`, 32);
    const spanId = hexId(`span:${traceId}:${this.counter++}`, 16);
    const s: MemorySpan = {
      traceId,
      spanId,
      ...(parent ? { parentSpanId: parent.spanId } : {}),
      name: span.name,
      kind: span.kind,
      role: span.role,
      startMs: span.time,
      endMs: span.time,
      attributes: { ...redactAttributes(span.attributes, this.redactor) },
      events: [],
      detail: span.detail,
    };
    this.spans.push(s);
    return s;
  }

  event(handle: MemorySpan, event: SpanEventSpec): void {
    handle.events.push(redactEvent(event, this.redactor));
  }

  close(handle: MemorySpan, close: SpanClose): void {
    Object.assign(handle.attributes, redactAttributes(close.attributes, this.redactor));
    handle.endMs = Math.max(handle.startMs, close.time);
    handle.detail = close.detail;
    if (close.error) handle.error = { type: close.error.type, message: this.redactor.redactString(close.error.message) };
  }
}
