import { hostname } from "node:os";
import type { AnyHookContext } from "@harnessx/core";
import { EVENT_FORMAT_VERSION, type RecordedEvent, type RecordedRunStatus, type RunManifest, type RunSummary } from "../format/event.js";
import { producerVersions } from "../format/layout.js";
import { isArtifactId, sha256Hex } from "../artifacts/artifact-store.js";
import type { Sanitizer } from "../redact/sanitize.js";
import { describeRules } from "../redact/rules.js";
import { eventContent, type ContentState } from "./event-content.js";
import { MessageLog } from "./message-log.js";
import type { ResolvedRecorderOptions } from "./options.js";
import type { RunWriter } from "./run-writer.js";
import { newSpanId, SpanTracker } from "./span-tracker.js";

/**
 * An artifact the run references: a payload moved aside (`json` set, stored by the background
 * writer after the line) or one another extension stored (CUSTOM event): both get pinned.
 */
export interface PendingArtifact {
  runId: string;
  sha256: string;
  json?: string;
}

export function emptySummary(): RunSummary {
  return { events: 0, byKind: {}, inputTokens: 0, outputTokens: 0, modelCalls: 0, toolCalls: 0, errors: 0, dropped: 0 };
}

/** One run being recorded: its files, spans, sequence numbers, totals and what it references. */
export class RunRecording {
  readonly spans: SpanTracker;
  readonly manifest: RunManifest;
  private readonly content: ContentState = { messages: new MessageLog(), lastPrefixKey: undefined };
  private seq: number;
  private lines = "";
  /** Artifacts to pin for this run (payload refs and CUSTOM events with a sha256). */
  readonly referenced = new Set<string>();

  constructor(
    readonly writer: RunWriter,
    start: AnyHookContext & { event: "agent_start" },
    previous: RunManifest | undefined,
    private readonly options: ResolvedRecorderOptions,
    private readonly sanitizer: Sanitizer,
  ) {
    const agent = start.agent;
    this.manifest = previous
      ? { ...previous, status: "running", endedAt: null, pid: process.pid }
      : {
          format: "harnessx.run",
          v: 1,
          runId: start.data.runId,
          runSpanId: newSpanId(),
          agent: agent.config.name,
          sessionId: agent.sessionId,
          models: [],
          status: "running",
          startedAt: start.timestamp,
          endedAt: null,
          producer: producerVersions(),
          pid: process.pid,
          hostname: hostname(),
          config: sanitizer.sanitize(agent.config, "config", []),
          summary: emptySummary(),
          redaction: options.rules ? { ...describeRules(options.rules), custom: options.customRedact !== undefined } : "off",
          artifacts: [],
        };
    this.manifest.summary ??= emptySummary();
    this.seq = previous?.summary?.events ?? 0;
    for (const id of this.manifest.artifacts) this.referenced.add(id);
    this.spans = new SpanTracker(this.manifest.runSpanId);
  }

  get summary(): RunSummary {
    return this.manifest.summary!;
  }

  /** Builds, redacts and buffers the event's line; large payloads are returned to store as artifacts. */
  record(event: AnyHookContext, artifacts: PendingArtifact[]): void {
    const placement = this.spans.place(event);
    const { attrs, payload } = eventContent(event, this.content, this.options.captureContent);
    this.count(event, attrs);
    this.push(event.event, event.timestamp, placement.spanId, placement.parentSpanId, attrs, payload, artifacts);
  }

  /** The recorder's own events (`recorder.dropped`, `recorder.recovered`). */
  recordOwn(kind: string, ts: number, attrs: Record<string, unknown>, artifacts: PendingArtifact[]): void {
    if (kind === "recorder.dropped") this.summary.dropped += Number(attrs.count) || 0;
    this.push(kind, ts, null, this.spans.innermost(), attrs, undefined, artifacts);
  }

  /** Writes the buffered lines (one write per drain). */
  flush(now: number): void {
    if (this.lines.length === 0) {
      this.writer.tick(now);
      return;
    }
    const lines = this.lines;
    this.lines = "";
    this.writer.append(lines, now);
    this.writer.tick(now);
  }

  finish(status: RecordedRunStatus, endedAt: number, error?: { name: string; message: string; code?: string }): void {
    this.manifest.status = status;
    this.manifest.endedAt = endedAt;
    if (error) this.manifest.error = error;
    this.manifest.artifacts = [...this.referenced];
    this.writer.writeManifest(this.manifest);
  }

  private push(kind: string, ts: number, spanId: string | null, parentSpanId: string | null, attrs: Record<string, unknown>, payload: unknown, artifacts: PendingArtifact[]): void {
    const redacted: string[] = [];
    const runId = this.manifest.runId;
    let line: RecordedEvent = {
      v: EVENT_FORMAT_VERSION,
      seq: ++this.seq,
      ts,
      runId,
      spanId,
      parentSpanId,
      kind,
      attrs: this.sanitizer.sanitize(attrs, "attrs", redacted) as Record<string, unknown>,
    };
    if (payload !== undefined) line.payload = this.sanitizer.sanitize(payload, "payload", redacted);
    if (redacted.length) line.redacted = redacted;
    if (this.options.customRedact) line = this.options.customRedact(line);
    if (line.payload !== undefined) {
      const json = JSON.stringify(line.payload);
      if (json.length > this.options.inlinePayloadBytes / 4 && Buffer.byteLength(json) > this.options.inlinePayloadBytes) {
        const sha256 = sha256Hex(json);
        delete line.payload;
        line.payloadRef = { sha256, bytes: Buffer.byteLength(json), preview: json.slice(0, 240) };
        this.referenced.add(sha256);
        artifacts.push({ runId, sha256, json });
      }
    }
    const referenced = (line.attrs as { sha256?: unknown }).sha256;
    if (kind === "custom" && isArtifactId(referenced) && !this.referenced.has(referenced)) {
      this.referenced.add(referenced);
      artifacts.push({ runId, sha256: referenced });
    }
    this.summary.events++;
    this.summary.byKind[kind] = (this.summary.byKind[kind] ?? 0) + 1;
    this.lines += JSON.stringify(line) + "\n";
  }

  private count(event: AnyHookContext, attrs: Record<string, unknown>): void {
    const summary = this.summary;
    if (event.event === "llm_response") {
      summary.modelCalls++;
      summary.inputTokens += Number(attrs.inputTokens) || 0;
      summary.outputTokens += Number(attrs.outputTokens) || 0;
      const model = String(attrs.model);
      if (!this.manifest.models.includes(model)) this.manifest.models.push(model);
    } else if (event.event === "llm_request") {
      const model = String(attrs.model);
      if (!this.manifest.models.includes(model)) this.manifest.models.push(model);
    } else if (event.event === "tool_call_end") summary.toolCalls++;
    else if (event.event === "error") summary.errors++;
  }
}
