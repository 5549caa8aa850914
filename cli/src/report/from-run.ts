import { GenAI } from "@harnessx/core";
import type { RecordedEvent, Recording } from "@harnessx/recorder";
import { cut } from "../output/format.js";
import type { ReportData, ReportEvent, ReportSpan } from "./model.js";

/** Payloads larger than this are cut in the report (the recording keeps them whole). */
const MAX_REPORT_PAYLOAD_CHARS = 256 * 1024;

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

function toolError(end: RecordedEvent, payload: unknown): string | undefined {
  const a = end.attrs ?? {};
  if (a.isError !== true && (a.outcome === undefined || a.outcome === "executed")) return undefined;
  const content = (payload as { result?: { content?: unknown } } | undefined)?.result?.content;
  return `${String(a.outcome ?? "failed")}${typeof content === "string" ? `: ${cut(content, 200)}` : ""}`;
}

/**
 * The report's plain data from a recording (a run or a bundle): spans are those every backend
 * shows (`Recording.spans`, core's one mapping: run, model calls, tool calls), payloads are read
 * from artifacts when stored aside.
 */
export async function reportDataFrom(recording: Recording, onEvent?: () => void): Promise<ReportData> {
  const { run } = recording;
  const events = await recording.readEvents();
  const reportEvents: ReportEvent[] = [];
  const payloads = new Map<number, unknown>();
  for (const event of events) {
    const payload = await recording.payloadOf(event).catch((error: unknown) => ({ unavailable: (error as Error).message }));
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

  const errorsBySpan = new Map<string, string>();
  for (const event of events) {
    if (event.kind === "error" && event.parentSpanId) errorsBySpan.set(event.parentSpanId, str(event.attrs.errorMessage) ?? "failed");
    if (event.kind === "tool_call_end" && event.spanId) {
      const failure = toolError(event, payloads.get(event.seq));
      if (failure) errorsBySpan.set(event.spanId, failure);
    }
  }
  const spans: ReportSpan[] = (await recording.spans()).map((s) => ({
    spanId: s.spanId,
    ...(s.parentSpanId && s.kind !== "run" ? { parentSpanId: s.parentSpanId } : {}),
    kind: s.kind,
    name: s.name,
    startTs: s.startTs,
    ...(s.endTs !== null ? { endTs: s.endTs } : s.kind === "run" && run.endedAt ? { endTs: run.endedAt } : {}),
    ...(s.status === "error" ? { error: s.kind === "run" ? run.error?.message ?? "run failed" : errorsBySpan.get(s.spanId) ?? "failed" } : {}),
    ...(s.kind === "model" ? { model: String(s.attrs[GenAI.REQUEST_MODEL] ?? "") } : {}),
    ...(s.kind === "tool" ? { tool: String(s.attrs[GenAI.TOOL_NAME] ?? "") } : {}),
    ...(s.inputTokens !== null && s.kind === "model" ? { inputTokens: s.inputTokens, outputTokens: s.outputTokens ?? 0 } : {}),
  }));
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
      droppedEvents: recording.summary.dropped,
    },
    spans,
    events: reportEvents,
  };
}
