import type { RecordingStore } from "@harnessx/recorder";
import type { RecordedEvent } from "./recorded-event.js";
import type { ConvertOptions } from "./spans.js";

export interface LoadedRecording {
  events: RecordedEvent[];
  /** Agent facts from `run.json`, ready for the converters. */
  options: ConvertOptions;
}

/**
 * A run of a flight recording, ready to convert: payloads stored aside are
 * read back, and LLM requests are rebuilt whole (the recorder stores their
 * messages incrementally). Pass `options` to the converters.
 */
export async function loadRecording(store: RecordingStore, runId: string): Promise<LoadedRecording> {
  // Loaded on demand: the recorder brings DuckDB and zstd, which live tracing does not need.
  const { RequestRebuilder } = await import("@harnessx/recorder");
  const manifest = await store.manifest(runId);
  const rebuilder = new RequestRebuilder();
  const events: RecordedEvent[] = [];
  for (const event of await store.readEvents(runId)) {
    const resolved = event.payloadRef && event.payload === undefined ? { ...event, payload: await store.payloadOf(event) } : event;
    events.push(rebuilder.apply(resolved));
  }
  return { events, options: { agent: { name: manifest.agent, sessionId: manifest.sessionId } } };
}
