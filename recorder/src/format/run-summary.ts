import { isErrorEvent } from "./error-events.js";
import type { RecordedEvent, RunSummary } from "./event.js";

/**
 * The kinds whose attributes `countEvent` reads (tokens, dropped counts, a tool call's outcome):
 * every other kind is counted by its kind alone, so a reader may count its lines undecoded.
 */
export const KINDS_COUNTED_BY_ATTRS: ReadonlySet<string> = new Set([
  "llm_response",
  "tool_call_end",
  "recorder.dropped",
]);

/** A run's totals before its first event. */
export function emptySummary(): RunSummary {
  return { events: 0, byKind: {}, inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, errors: 0, dropped: 0 };
}

/**
 * Adds one event to running totals: the one summary counter, which the recorder runs as it writes
 * each line, and recovery, bundles and readers run over lines read back (`summarize`).
 */
export function countEvent(summary: RunSummary, event: Pick<RecordedEvent, "kind" | "attrs">): void {
  summary.events++;
  summary.byKind[event.kind] = (summary.byKind[event.kind] ?? 0) + 1;
  const attrs = event.attrs ?? {};
  if (event.kind === "llm_response") {
    summary.modelCalls++;
    summary.inputTokens += Number(attrs.inputTokens) || 0;
    summary.outputTokens += Number(attrs.outputTokens) || 0;
  } else if (event.kind === "tool_call_end") summary.toolCalls++;
  else if (event.kind === "recorder.dropped") summary.dropped += Number(attrs.count) || 0;
  if (isErrorEvent(event)) summary.errors++;
}

/** Totals of a run computed from its events (for runs that never wrote them: crashed, running). */
export function summarize(events: Iterable<RecordedEvent>): RunSummary {
  const summary = emptySummary();
  for (const event of events) countEvent(summary, event);
  return summary;
}
