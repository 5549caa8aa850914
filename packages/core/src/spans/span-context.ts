import { randomHex } from "../util/random-hex.js";

/** What a span stands for: a run (`invoke_agent`), a model call (`chat`), a tool call (`execute_tool`). */
export type SpanRole = "agent" | "chat" | "tool";

/** A span's identity in W3C trace-context shape: 32 and 16 lowercase hex digits. */
export interface SpanContext {
  traceId: string;
  spanId: string;
  /** Absent for a trace's root span. */
  parentSpanId?: string;
  role: SpanRole;
}

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

export function isTraceId(value: unknown): value is string {
  return typeof value === "string" && TRACE_ID.test(value);
}

export function isSpanId(value: unknown): value is string {
  return typeof value === "string" && SPAN_ID.test(value);
}

export function newTraceId(): string {
  return randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
}
