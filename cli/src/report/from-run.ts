import { GenAI } from "@harnessx/core/tracing";
import { spanRows, type RecordedEvent, type Recording } from "@harnessx/recorder";
import { cut } from "../output/format.js";
import { describeEvent } from "../timeline/describe.js";
import type { ReportData, ReportEvent, ReportSpan } from "./model.js";
import { PayloadPacker } from "./payload-packer.js";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Events whose one-line summary the event list shows beside the span: rare, and what a reader looks for. */
const NOTED_KINDS = new Set([
  "command_invoked",
  "skill_invoked",
  "message_appended",
  "context_condensed",
  "custom",
  "checkpoint",
]);

function noteOf(event: RecordedEvent): string | undefined {
  if (event.kind === "error") return str(event.attrs.errorMessage) ?? "error";
  return NOTED_KINDS.has(event.kind) ? describeEvent(event) : undefined;
}

/** What a call failed with: the error's class and message. */
interface Failure {
  errorClass?: string;
  message: string;
}

/**
 * A failed tool call's error: the thrown error's class and message when the tool threw (its raw
 * result), else the call's outcome (`timeout`, `denied`, ...) and the result the model was given.
 */
function toolError(end: RecordedEvent, payload: unknown): Failure | undefined {
  const a = end.attrs ?? {};
  if (a.isError !== true && (a.outcome === undefined || a.outcome === "executed")) return undefined;
  const recorded = payload as
    | { result?: { content?: unknown }; rawResult?: { name?: unknown; message?: unknown } }
    | undefined;
  const raw = recorded?.rawResult;
  const outcome = String(a.outcome ?? "failed");
  if (outcome === "failed" && raw && typeof raw === "object" && typeof raw.message === "string") {
    return { errorClass: typeof raw.name === "string" ? raw.name : outcome, message: cut(raw.message, 200) };
  }
  const content = recorded?.result?.content;
  return {
    errorClass: outcome === "executed" ? "tool error" : outcome,
    message: typeof content === "string" ? cut(content, 200) : outcome,
  };
}

/** What an ERROR or RETRY event says failed, from its attributes. */
function eventFailure(event: RecordedEvent): Failure {
  return {
    ...(str(event.attrs.errorName) ? { errorClass: str(event.attrs.errorName) } : {}),
    message: str(event.attrs.errorMessage) ?? "failed",
  };
}

/** A failed span's `error` and `errorClass`: what it failed with, else only that it failed. */
const spanFailure = (failure: Failure | undefined): Pick<ReportSpan, "error" | "errorClass"> =>
  failure
    ? { error: failure.message, ...(failure.errorClass ? { errorClass: failure.errorClass } : {}) }
    : { error: "failed" };

/**
 * The report's plain data from a recording (a run or a bundle): spans are those every backend
 * shows (`Recording.spans`, core's one mapping: run, model calls, tool calls), payloads are read
 * from artifacts when stored aside.
 */
export async function reportDataFrom(recording: Recording, onEvent?: () => void): Promise<ReportData> {
  const { run } = recording;
  // One event at a time: each payload is packed (compressed, long texts shared) as it is read,
  // so the report of a long run never holds its payloads in memory.
  const packer = new PayloadPacker({ background: true });
  const reportEvents: ReportEvent[] = [];
  const errorsBySpan = new Map<string, Failure>();
  // The spans come from the same pass (as `Recording.spans()` makes them: the mapping reads attributes only).
  const attributed: RecordedEvent[] = [];
  for await (const event of recording.events()) {
    const { payload: _payload, payloadRef: _ref, ...attrsOnly } = event;
    attributed.push(attrsOnly);
    const payload = await recording
      .payloadOf(event)
      .catch((error: unknown) => ({ unavailable: (error as Error).message }));
    packer.add(payload);
    await packer.room();
    const spanId = event.spanId ?? event.parentSpanId;
    const note = noteOf(event);
    const errorClass = event.kind === "error" ? str(event.attrs.errorName) : undefined;
    reportEvents.push({
      seq: event.seq,
      ts: event.ts,
      ...(spanId ? { spanId } : {}),
      kind: event.kind,
      ...(note !== undefined ? { message: note } : {}),
      ...(errorClass ? { errorClass } : {}),
    });
    // A retried model call that still failed failed with what its last attempt said; an ERROR event names its call's failure.
    if ((event.kind === "error" || event.kind === "retry") && event.parentSpanId)
      errorsBySpan.set(event.parentSpanId, eventFailure(event));
    if (event.kind === "tool_call_end" && event.spanId) {
      const failure = toolError(event, payload);
      if (failure) errorsBySpan.set(event.spanId, failure);
    }
    onEvent?.();
  }
  const spans: ReportSpan[] = spanRows(attributed, new Map([[run.runId, run]])).map((s) => ({
    spanId: s.spanId,
    ...(s.parentSpanId && s.kind !== "run" ? { parentSpanId: s.parentSpanId } : {}),
    kind: s.kind,
    name: s.name,
    startTs: s.startTs,
    ...(s.endTs !== null ? { endTs: s.endTs } : s.kind === "run" && run.endedAt ? { endTs: run.endedAt } : {}),
    ...(s.status === "error"
      ? spanFailure(
          s.kind === "run"
            ? run.error
              ? { errorClass: run.error.name, message: run.error.message }
              : undefined
            : errorsBySpan.get(s.spanId),
        )
      : {}),
    ...(s.kind === "model" ? { model: String(s.attrs[GenAI.REQUEST_MODEL] ?? "") } : {}),
    ...(s.kind === "tool" ? { tool: String(s.attrs[GenAI.TOOL_NAME] ?? "") } : {}),
    ...(s.inputTokens !== null && s.kind === "model"
      ? { inputTokens: s.inputTokens, outputTokens: s.outputTokens ?? 0 }
      : {}),
  }));
  return {
    run: {
      runId: run.runId,
      agent: run.agent,
      model: run.models?.join(", "),
      status: run.status,
      ...(run.error ? { error: run.error.message, errorClass: run.error.name } : {}),
      startTs: run.startedAt,
      ...(run.endedAt !== null && run.endedAt !== undefined ? { endTs: run.endedAt } : {}),
      redaction:
        run.redaction === undefined
          ? undefined
          : run.redaction === "off"
            ? ["off"]
            : [
                `${run.redaction.keys.length} sensitive keys`,
                ...run.redaction.patterns.map((p) => `pattern ${p.name}`),
                ...(run.redaction.custom ? ["custom function"] : []),
              ],
      droppedEvents: recording.summary.dropped,
    },
    spans,
    events: reportEvents,
    payloads: await packer.finished(),
  };
}
