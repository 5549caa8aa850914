import { randomHex } from "../util/random-hex.js";

/** What a span stands for: a run (`invoke_agent`), a model call (`chat`), a tool call (`execute_tool`). */
export type SpanRole = "agent" | "chat" | "tool";

/** A span's identity in W3C trace-context shape: 32 and 16 lowercase hex digits. */
export interface SpanContext {
  /** The trace's id: 32 lowercase hex digits, shared by every span of the trace. */
  traceId: string;
  /** The span's own id: 16 lowercase hex digits. */
  spanId: string;
  /** Absent for a trace's root span. */
  parentSpanId?: string;
  /** What the span stands for. */
  role: SpanRole;
}

/**
 * `chars` lowercase hex digits, not all zero. A character loop rather than a regex: every span
 * a live exporter opens is checked here.
 */
function isHexId(value: unknown, chars: number): value is string {
  if (typeof value !== "string" || value.length !== chars) return false;
  let nonZero = false;
  for (let i = 0; i < chars; i++) {
    const c = value.charCodeAt(i);
    if (c === 48) continue;
    if (!((c > 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
    nonZero = true;
  }
  return nonZero;
}

/** True for a W3C trace id: 32 lowercase hex digits, not all zero. */
export function isTraceId(value: unknown): value is string {
  return isHexId(value, 32);
}

/** True for a W3C span id: 16 lowercase hex digits, not all zero. */
export function isSpanId(value: unknown): value is string {
  return isHexId(value, 16);
}

/** A random trace id (32 lowercase hex digits). */
export function newTraceId(): string {
  return randomHex(16);
}

/** A random span id (16 lowercase hex digits). */
export function newSpanId(): string {
  return randomHex(8);
}
