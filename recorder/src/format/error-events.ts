import type { RecordedEvent } from "./event.js";

type Judged = Pick<RecordedEvent, "kind"> & { attrs?: Record<string, unknown> };

/**
 * The one definition of an error of a run, which every count uses (`run.json`'s summary, `trace
 * ls`, `summary`, the report): an `ERROR` event, or a tool call that did not execute cleanly
 * (failed, timed out, denied, bad input, unknown tool, or an error result).
 */
export function isErrorEvent(event: Judged): boolean {
  if (event.kind === "error") return true;
  if (event.kind !== "tool_call_end") return false;
  const a = event.attrs ?? {};
  return a.outcome !== undefined ? a.outcome !== "executed" || a.isError === true : a.isError === true;
}

/** What a reader looking for failures is shown: the errors, a failed run's end, and events the recorder had to drop. */
export function isFailureEvent(event: Judged): boolean {
  return (
    isErrorEvent(event) ||
    event.kind === "recorder.dropped" ||
    (event.kind === "agent_end" && event.attrs?.status === "failed")
  );
}
