import { ALL_HOOK_EVENTS, type HookEvent } from "@harnessx/core";
import { RecordingFormatError } from "../errors.js";
import type { TraceEvent } from "../mapping/index.js";

/**
 * One line of a flight recording (DESIGN.md section 5), as far as the
 * converters read it. `payload` is the hook payload after JSON; an event whose
 * payload went to an artifact (`payloadRef`) must be resolved by the reader first.
 */
export interface RecordedEvent {
  v?: number;
  seq?: number;
  /** Milliseconds since the epoch (or an ISO 8601 string). */
  ts: number | string;
  runId?: string;
  spanId?: string | null;
  parentSpanId?: string | null;
  /** The hook event name (`llm_request`, ...) or the recorder's own (`recorder.dropped`). */
  kind: string;
  attrs?: Record<string, unknown>;
  payload?: unknown;
  payloadRef?: { sha256: string; bytes: number; preview?: string };
}

const HOOK_KINDS = new Set<string>(ALL_HOOK_EVENTS);

export interface NormalizedEvents {
  events: TraceEvent[];
  /** Hook events left out because their payload was not available (an unresolved `payloadRef`). */
  skipped: number;
}

/** Validates recorded events and turns the hook ones into mapping input, in order. */
export function normalizeRecording(source: Iterable<RecordedEvent>): NormalizedEvents {
  const events: TraceEvent[] = [];
  let skipped = 0;
  let position = 0;
  for (const raw of source) {
    position++;
    if (!raw || typeof raw !== "object") throw new RecordingFormatError(`expected an event object, got ${raw === null ? "null" : typeof raw}`, position);
    if (typeof raw.kind !== "string" || raw.kind === "") throw new RecordingFormatError("the event has no \"kind\"", position);
    const ts = typeof raw.ts === "string" ? Date.parse(raw.ts) : raw.ts;
    if (typeof ts !== "number" || !Number.isFinite(ts)) throw new RecordingFormatError(`"ts" must be milliseconds since the epoch, got ${JSON.stringify(raw.ts)}`, position);
    if (!HOOK_KINDS.has(raw.kind)) continue;
    let data = raw.payload;
    if (typeof data === "string") {
      try {
        data = JSON.parse(data);
      } catch {
        throw new RecordingFormatError(`the payload of a "${raw.kind}" event is a string that is not JSON`, position);
      }
    }
    if (data === undefined || data === null) {
      skipped++;
      continue;
    }
    if (raw.kind === "llm_request") data = requestFacts(data, raw.attrs);
    events.push({ kind: raw.kind as HookEvent, ts, runId: raw.runId, data });
  }
  return { events, skipped };
}

/**
 * The recorder keeps an LLM_REQUEST's request in the payload and its top-level
 * facts (model, budget, temperature) in `attrs`: put the hook payload back together.
 */
function requestFacts(data: unknown, attrs: Record<string, unknown> | undefined): unknown {
  if (!data || typeof data !== "object") return data;
  const payload = data as Record<string, unknown>;
  const request = (payload.request && typeof payload.request === "object" ? payload.request : {}) as Record<string, unknown>;
  const a = attrs ?? {};
  return {
    model: request.model ?? a.model,
    maxTokens: request.maxTokens ?? a.maxTokens,
    temperature: request.temperature ?? a.temperature,
    system: request.system,
    stream: request.stream ?? a.stream,
    messageCount: a.messageCount,
    toolCount: a.toolCount,
    prefixKey: a.prefixKey,
    ...payload,
  };
}
