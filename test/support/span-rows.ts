// The `spans` table of one run as a test reads it: the run span and the calls under it.
import assert from "node:assert/strict";

/** One row of `SELECT ... FROM spans` (SPAN_ROWS). */
export interface SpanRow {
  span_id: string;
  parent_span_id: string | null;
  kind: string;
  name: string;
  status: string;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** The columns a test checks, in start order. */
export const SPAN_ROWS =
  "SELECT span_id, parent_span_id, kind, name, status, input_tokens, output_tokens FROM spans ORDER BY start_ts, kind DESC";

/** The run span (a root) and its children, checking every other span hangs directly under it. */
export function runAndCalls(rows: SpanRow[]): { root: SpanRow; calls: SpanRow[] } {
  const root = rows.find((r) => r.kind === "run");
  assert.ok(root, "the run has a run span");
  assert.equal(root.parent_span_id, null);
  const calls = rows.filter((r) => r !== root);
  assert.ok(
    calls.every((r) => r.parent_span_id === root.span_id),
    "every call hangs under the run",
  );
  return { root, calls };
}
