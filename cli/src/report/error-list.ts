import type { ReportEvent, ReportRun, ReportSpan } from "./report-types.js";

type Call = Pick<ReportSpan, "spanId" | "kind" | "name" | "startTs" | "endTs" | "error" | "errorClass">;
type Event = Pick<ReportEvent, "seq" | "ts" | "spanId" | "kind" | "payload" | "message" | "errorClass">;
type Run = Pick<ReportRun, "startTs" | "endTs" | "error" | "errorClass">;

/** One entry of the report's error list: what failed (class and message), when, and the call to show for it. */
export interface ReportError {
  ts: number;
  /** The failed call's name (`execute_tool charge_card`), `run`, or `error` for an error event outside any call. */
  where: string;
  /** The error's class as recorded (`ProviderError`, `Error`), or a tool call's outcome (`timeout`, `denied`). */
  errorClass: string;
  message: string;
  /** The ERROR event that reported it, when one did. */
  seq?: number;
  spanId?: string;
  /** Position of the call in `ReportLayout.spans` (and on the page's timeline): what the entry links to. */
  span?: number;
}

function payloadError(payload: unknown): { errorClass?: string; message: string } {
  if (payload && typeof payload === "object") {
    const p = payload as Record<string, unknown>;
    const inner = p.error;
    if (inner && typeof inner === "object") {
      const { name, message } = inner as { name?: unknown; message?: unknown };
      if (typeof message === "string") return { ...(typeof name === "string" ? { errorClass: name } : {}), message };
    }
    if (typeof inner === "string") return { message: inner };
    if (typeof p.message === "string") return { message: p.message };
  }
  return { message: typeof payload === "string" ? payload : "error" };
}

const sameFailure = (a: ReportError, b: ReportError) => a.errorClass === b.errorClass && a.message === b.message;

/**
 * The report's error list, oldest first: each failed call (linked to it on the timeline), each
 * ERROR event (linked to its call when it names one) and the run's own failure. One failure is
 * listed once: an ERROR event saying what a failed call already says becomes that call's event
 * link, and the run's error is left out when an entry above already says it.
 */
export function errorList(run: Run, events: readonly Event[], spans: readonly Call[], endTs: number): ReportError[] {
  const position = new Map(spans.map((s, i) => [s.spanId, i]));
  const calls: ReportError[] = [];
  // Calls that started in the same millisecond are listed in the order they ended (a call that failed at once, then the next model call).
  const ends = new Map<ReportError, number>();
  for (const [i, span] of spans.entries()) {
    if (span.error === undefined || span.kind === "run") continue;
    const entry: ReportError = {
      ts: span.startTs,
      where: span.name,
      errorClass: span.errorClass ?? "error",
      message: span.error,
      spanId: span.spanId,
      span: i,
    };
    ends.set(entry, span.endTs ?? endTs);
    calls.push(entry);
  }
  const reported: ReportError[] = [];
  for (const event of events) {
    if (event.kind !== "error") continue;
    const found = payloadError(event.payload);
    const at = event.spanId === undefined ? undefined : position.get(event.spanId);
    const entry: ReportError = {
      ts: event.ts,
      where: at === undefined ? "error" : spans[at].kind === "run" ? "run" : spans[at].name,
      errorClass: event.errorClass ?? found.errorClass ?? "error",
      message: event.message ?? found.message,
      seq: event.seq,
      ...(event.spanId !== undefined ? { spanId: event.spanId } : {}),
      ...(at !== undefined ? { span: at } : {}),
    };
    const call = calls.find((c) => c.seq === undefined && sameFailure(c, entry));
    if (call) call.seq = event.seq;
    else reported.push(entry);
  }
  const errors = [...calls, ...reported];
  if (run.error) {
    const runSpan = spans.findIndex((s) => s.kind === "run");
    const entry: ReportError = {
      ts: run.endTs ?? endTs,
      where: "run",
      errorClass: run.errorClass ?? "error",
      message: run.error,
      ...(runSpan >= 0 ? { spanId: spans[runSpan].spanId, span: runSpan } : {}),
    };
    if (!errors.some((e) => sameFailure(e, entry))) errors.push(entry);
  }
  return errors.sort((a, b) => a.ts - b.ts || (ends.get(a) ?? a.ts) - (ends.get(b) ?? b.ts));
}
