import type { ModelRequest, ProviderErrorKind, ProviderResponse } from "@harnessx/core";
import type { RecordedEvent } from "../format/event.js";
import { RequestRebuilder } from "../format/request-rebuilder.js";

/** One provider call as recorded: the request, then a reply or the error it failed with. */
export interface RecordedCall {
  /** The request as recorded (redacted), rebuilt whole. */
  request: ModelRequest;
  /** The model's reply; absent when the call failed (then `error` is set). */
  response?: ProviderResponse;
  /** How the call failed (a retried attempt or the final error); absent when it got a reply. */
  error?: {
    /** The `ProviderError` kind recorded (`"server"` when the recording gave none). */
    kind: ProviderErrorKind;
    /** The recorded error message. */
    message: string;
    /** The HTTP status, when the recording has one. */
    status?: number;
  };
  /** seq of the LLM_REQUEST event. */
  seq: number;
}

function errorOf(attrsOrPayload: unknown): RecordedCall["error"] {
  const error = (attrsOrPayload as { error?: { kind?: string; message?: string; status?: number } } | undefined)?.error;
  return {
    kind: (error?.kind as ProviderErrorKind) ?? "server",
    message: error?.message ?? "recorded provider failure",
    ...(error?.status !== undefined ? { status: error.status } : {}),
  };
}

/**
 * The provider calls of a run in order: each model span becomes its failed attempts (RETRY
 * events of target "model") followed by its reply (LLM_RESPONSE) or final error (provider ERROR).
 * Events must have inline payloads (resolve `payloadRef`s first).
 */
export function recordedCalls(events: readonly RecordedEvent[]): RecordedCall[] {
  const rebuilder = new RequestRebuilder();
  const calls: RecordedCall[] = [];
  let open: { spanId: string | null; request: ModelRequest; seq: number } | undefined;
  for (const raw of events) {
    const event = rebuilder.apply(raw);
    const payload = event.payload as Record<string, unknown> | undefined;
    if (event.kind === "llm_request") {
      open = { spanId: event.spanId, request: payload?.request as ModelRequest, seq: event.seq };
      continue;
    }
    if (!open) continue;
    if (event.kind === "retry" && event.attrs.target === "model") {
      calls.push({ request: open.request, seq: open.seq, error: errorOf(payload) });
    } else if (event.kind === "llm_response" && event.spanId === open.spanId) {
      calls.push({ request: open.request, seq: open.seq, response: payload?.response as ProviderResponse });
      open = undefined;
    } else if (event.kind === "error" && event.attrs.source === "provider") {
      // Model calls of a run are sequential: a provider error ends the one that is open.
      calls.push({ request: open.request, seq: open.seq, error: errorOf(payload) });
      open = undefined;
    }
  }
  return calls;
}
