import type { ModelRequest } from "@harnessx/core";
import type { RecordedEvent } from "./event.js";

interface RunRequests {
  messages: unknown[];
  system: unknown;
  tools: unknown;
}

/**
 * Puts back what the recorder leaves out of LLM_REQUEST events (messages already recorded,
 * an unchanged system prompt and tool list), so replay and converters see whole requests.
 * Feed it every event of a run in `seq` order; it tracks several runs at once.
 */
export class RequestRebuilder {
  private readonly runs = new Map<string, RunRequests>();

  /** Returns the event with `payload.request` complete (a new object; the input is not changed). */
  apply(event: RecordedEvent): RecordedEvent {
    if (event.kind !== "llm_request" || !isRecord(event.payload) || !isRecord(event.payload.request)) return event;
    const recorded = event.payload.request;
    let run = this.runs.get(event.runId);
    if (!run) this.runs.set(event.runId, (run = { messages: [], system: undefined, tools: undefined }));
    const from = typeof event.attrs.messagesFrom === "number" ? event.attrs.messagesFrom : 0;
    const added = Array.isArray(recorded.messages) ? recorded.messages : [];
    run.messages = from === 0 ? [...added] : [...run.messages.slice(0, from), ...added];
    if (!event.attrs.prefixReused) {
      run.system = recorded.system;
      run.tools = recorded.tools;
    }
    const request = { ...recorded, system: run.system, tools: run.tools, messages: run.messages };
    return { ...event, payload: { ...event.payload, request } };
  }
}

/** Whole requests of a run's events, in order (events of other kinds are skipped). */
export function rebuildRequests(events: Iterable<RecordedEvent>): ModelRequest[] {
  const rebuilder = new RequestRebuilder();
  const out: ModelRequest[] = [];
  for (const event of events) {
    const full = rebuilder.apply(event);
    if (full.kind === "llm_request") out.push((full.payload as { request: ModelRequest }).request);
  }
  return out;
}

/** Type guard for plain objects read back from JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
