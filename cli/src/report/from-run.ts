import type { RecordedEvent } from "@harnessx/recorder";
import { cut } from "../output/format.js";
import type { LoadedRun } from "../store/load.js";
import type { ReportData, ReportEvent, ReportSpan } from "./model.js";

/** Payloads larger than this are cut in the report (the recording keeps them whole). */
const MAX_REPORT_PAYLOAD_CHARS = 256 * 1024;

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function kindOfSpan(opening: RecordedEvent): ReportSpan["kind"] {
  if (opening.kind === "agent_start" || opening.kind === "agent_end") return "run";
  if (opening.kind === "llm_request" || opening.kind === "llm_response") return "model";
  if (opening.kind === "tool_call_start" || opening.kind === "tool_call_end") return "tool";
  return opening.kind;
}

function toolError(end: RecordedEvent, payload: unknown): string | undefined {
  const a = end.attrs ?? {};
  if (a.isError !== true && (a.outcome === undefined || a.outcome === "executed")) return undefined;
  const content = (payload as { result?: { content?: unknown } } | undefined)?.result?.content;
  return `${String(a.outcome ?? "failed")}${typeof content === "string" ? `: ${cut(content, 200)}` : ""}`;
}

/**
 * The report's plain data from a recorded run: spans are the recorder's own (events grouped by
 * `spanId`: run, model calls, tool calls), payloads are read from artifacts when stored aside.
 */
export async function reportDataFrom(loaded: LoadedRun, onEvent?: () => void): Promise<ReportData> {
  const { run, events } = loaded;
  const reportEvents: ReportEvent[] = [];
  const payloads = new Map<number, unknown>();
  for (const event of events) {
    const payload = await loaded.payloadOf(event).catch((error: unknown) => ({ unavailable: (error as Error).message }));
    payloads.set(event.seq, payload);
    const text = payload === undefined ? "" : JSON.stringify(payload);
    const tooBig = text !== undefined && text.length > MAX_REPORT_PAYLOAD_CHARS;
    reportEvents.push({
      seq: event.seq,
      ts: event.ts,
      ...(event.spanId ?? event.parentSpanId ? { spanId: (event.spanId ?? event.parentSpanId) as string } : {}),
      kind: event.kind,
      payload: tooBig ? `${text.slice(0, MAX_REPORT_PAYLOAD_CHARS)}…` : payload,
      ...(tooBig ? { payloadNote: `payload cut to ${MAX_REPORT_PAYLOAD_CHARS} of ${text.length} characters (the recording holds it whole: trace show --full)` } : {}),
    });
    onEvent?.();
  }

  const bySpan = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    if (!event.spanId) continue;
    const list = bySpan.get(event.spanId) ?? [];
    list.push(event);
    bySpan.set(event.spanId, list);
  }
  const spans: ReportSpan[] = [];
  for (const [spanId, own] of bySpan) {
    const first = own[0];
    const last = own[own.length - 1];
    const kind = kindOfSpan(first);
    const closing = own.find((e) => e.kind === "agent_end" || e.kind === "llm_response" || e.kind === "tool_call_end");
    const span: ReportSpan = { spanId, ...(first.parentSpanId ? { parentSpanId: first.parentSpanId } : {}), kind, name: first.kind, startTs: first.ts, ...(closing ? { endTs: last.ts } : {}) };
    if (kind === "run") {
      span.name = `run ${run.agent}`;
      if (run.error) span.error = run.error.message;
      if (!closing && run.endedAt) span.endTs = run.endedAt;
    } else if (kind === "model") {
      const model = str(closing?.attrs.model) ?? str(first.attrs.model) ?? "model";
      span.name = `chat ${model}`;
      span.model = model;
      span.inputTokens = num(closing?.attrs.inputTokens);
      span.outputTokens = num(closing?.attrs.outputTokens);
      const failure = events.find((e) => e.kind === "error" && e.parentSpanId === spanId);
      if (failure) span.error = str(failure.attrs.errorMessage) ?? "model call failed";
    } else if (kind === "tool") {
      const tool = str(first.attrs.toolName) ?? "tool";
      span.name = tool;
      span.tool = tool;
      if (closing) span.error = toolError(closing, payloads.get(closing.seq));
    }
    spans.push(span);
  }
  return {
    run: {
      runId: run.runId,
      agent: run.agent,
      model: run.models?.join(", "),
      status: run.status,
      ...(run.error ? { error: `${run.error.name}: ${run.error.message}` } : {}),
      startTs: run.startedAt,
      ...(run.endedAt !== null && run.endedAt !== undefined ? { endTs: run.endedAt } : {}),
      redaction: run.redaction === undefined ? undefined : run.redaction === "off" ? ["off"] : [`${run.redaction.keys.length} sensitive keys`, ...run.redaction.patterns.map((p) => `pattern ${p.name}`), ...(run.redaction.custom ? ["custom function"] : [])],
      droppedEvents: loaded.summary.dropped,
    },
    spans,
    events: reportEvents,
  };
}
