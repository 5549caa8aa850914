import type { AnyHookContext, Redactor } from "@harnessx/core/extension";
import { EVENT_FORMAT_VERSION, type RecordedRunStatus, type RunManifest, type RunSummary } from "../format/event.js";
import { sha256Hex } from "@harnessx/artifacts";
import { artifactsOf } from "../store/references.js";
import { eventContent, type ContentState } from "./event-content.js";
import { encodeEvent } from "./event-encoding.js";
import type { QueuedEvent } from "./message-log.js";
import { newManifest } from "./new-manifest.js";
import type { ResolvedRecorderOptions } from "./options.js";
import type { RunWriter } from "./run-writer.js";
import { placeEvent } from "./span-placement.js";
import { boundedAttributes, cut } from "./attribute-cut.js";
import { countEvent, emptySummary } from "../format/run-summary.js";
import { RollupTally, ROLLUP_DETAIL_KINDS } from "../format/run-rollup.js";
import type { RunRollup } from "../format/rollup-types.js";

/**
 * An artifact the run references: a payload moved aside (`json` set, stored by the background
 * writer after the line) or one another extension stored (a spilled result, named by a tool
 * result's or a CUSTOM event's `artifacts`): both get pinned.
 */
export interface PendingArtifact {
  runId: string;
  sha256: string;
  json?: string;
}

/** The recorded part of a run that goes on in this recording: what it was, where its numbering stands, its rollup so far. */
export interface EarlierPart {
  manifest: RunManifest;
  /** `seq` of its last event: the next one is `lastSeq + 1`. */
  lastSeq: number;
  /** Its rollup; undefined for an older recording without one (the run then ends without a rollup). */
  rollup: RunRollup | undefined;
}

type RunError = { name: string; message: string; code?: string };

/** One run being recorded: its files, spans, sequence numbers, totals and what it references. */
export class RunRecording {
  readonly manifest: RunManifest;
  private readonly content: ContentState = { lastPrefixKey: undefined };
  private seq: number;
  private lines: string[] = [];
  private chunks: string[] = [];
  private bufferedLength = 0;
  private manifestWritten = false;
  /** Artifacts to pin for this run (payload refs and CUSTOM events with a sha256). */
  readonly referenced = new Set<string>();
  /** The run continues a recorded one (its directory and segments exist already). */
  readonly resumed: boolean;
  /** Undefined when a resumed run's earlier part has no rollup (an older recording): none is written then. */
  private readonly rollup: RollupTally | undefined;

  constructor(
    readonly writer: RunWriter,
    start: AnyHookContext & { event: "agent_start" },
    earlier: EarlierPart | undefined,
    private readonly options: ResolvedRecorderOptions,
    private readonly redactor: Redactor,
  ) {
    const previous = earlier?.manifest;
    this.resumed = previous !== undefined;
    this.manifest = previous
      ? { ...previous, status: "running", endedAt: null, pid: process.pid }
      : newManifest(start, redactor, options.customRedact !== undefined);
    this.manifest.summary ??= emptySummary();
    if (start.data.durable) this.manifest.durable = true;
    // The policy in effect is written with the run from its first run.json on: `recover` applies it after a crash.
    if (options.retain) this.manifest.retain = options.retain;
    else delete this.manifest.retain;
    this.rollup = !earlier ? new RollupTally() : earlier.rollup ? RollupTally.from(earlier.rollup) : undefined;
    // Until the run ends again, run.json must not claim a rollup that misses what comes next.
    delete this.manifest.rollup;
    this.seq = earlier?.lastSeq ?? 0;
    for (const id of this.manifest.artifacts) this.referenced.add(id);
  }

  /** Characters of encoded lines waiting to be written. */
  get bufferedChars(): number {
    return this.bufferedLength;
  }

  get summary(): RunSummary {
    return this.manifest.summary!;
  }

  /** Builds, redacts and buffers the event's line; large payloads are returned to store as artifacts. */
  record(event: QueuedEvent, artifacts: PendingArtifact[]): void {
    const placement = placeEvent(event);
    const { attrs, payload } = eventContent(event, this.content, this.options.captureContent);
    if (event.event === "llm_response" || event.event === "llm_request") this.noteModel(attrs.model);
    this.push(event.event, event.timestamp, placement.spanId, placement.parentSpanId, attrs, payload, artifacts);
  }

  /** The recorder's own events (`recorder.dropped`, `recorder.recovered`). */
  recordOwn(kind: string, ts: number, attrs: Record<string, unknown>, artifacts: PendingArtifact[]): void {
    this.push(kind, ts, null, this.manifest.runSpanId || null, attrs, undefined, artifacts);
  }

  /** Writes the buffered lines (one write per drain). */
  flush(now: number): void {
    if (!this.manifestWritten) {
      this.writer.writeManifest(this.manifest);
      this.manifestWritten = true;
    }
    this.compact();
    if (this.chunks.length === 0) {
      this.writer.tick(now);
      return;
    }
    const lines = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join("");
    this.chunks = [];
    this.bufferedLength = 0;
    this.writer.append(lines, now);
    this.writer.tick(now);
  }

  /**
   * Joins the lines encoded so far into one flat string: a run starved of writes then holds a
   * few large strings rather than a rope of thousands of pieces for the GC to trace.
   */
  compact(): void {
    if (this.lines.length === 0) return;
    const joined = this.lines.join("");
    this.lines = [];
    this.chunks.push(joined);
    this.bufferedLength += joined.length;
  }

  /** A run that is still open changed state (paused for approval, resumed). */
  markStatus(status: RecordedRunStatus): void {
    this.manifest.status = status;
    this.writer.writeManifest(this.manifest);
  }

  /** True once any of the run was written (else `endAtOnce` writes it all at once). */
  get onDisk(): boolean {
    return this.writer.opened;
  }

  end(status: RecordedRunStatus, endedAt: number, error?: RunError): void {
    this.recordEnd(status, endedAt, error);
    this.writer.writeManifest(this.manifest);
  }

  /** A run of which nothing was written yet ends: its lines and manifest go to disk together, off the agent's thread. */
  endAtOnce(status: RecordedRunStatus, endedAt: number, error?: RunError): Promise<void> {
    this.compact();
    const lines = this.chunks.join("");
    this.chunks = [];
    this.bufferedLength = 0;
    this.recordEnd(status, endedAt, error);
    this.manifestWritten = true;
    return this.writer.writeWhole(lines, this.manifest);
  }

  private recordEnd(status: RecordedRunStatus, endedAt: number, error: RunError | undefined): void {
    this.manifest.status = status;
    this.manifest.endedAt = endedAt;
    // The likeliest place for a secret in run metadata (a failed call's URL or header); cut as attributes are, so run.json stays readable.
    if (error)
      this.manifest.error = this.redactor.redact(
        { ...error, message: cut(error.message) },
        "error",
        [],
      ) as RunManifest["error"];
    this.manifest.artifacts = [...this.referenced];
    if (this.rollup) this.manifest.rollup = this.rollup.toJSON();
  }

  private push(
    kind: string,
    ts: number,
    spanId: string | null,
    parentSpanId: string | null,
    attrs: Record<string, unknown>,
    payload: unknown,
    artifacts: PendingArtifact[],
  ): void {
    const runId = this.manifest.runId;
    const seq = ++this.seq;
    const encoded = encodeEvent(
      { v: EVENT_FORMAT_VERSION, seq, ts, runId, spanId, parentSpanId, kind, attrs: {} },
      attrs,
      payload,
      this.redactor,
      this.options.customRedact,
    );
    // Every line stays readable: attributes past their bound are cut (the payload keeps the whole).
    const cutAttrs = boundedAttributes(encoded.attrsJson);
    const { line, payloadJson } = encoded;
    const [attrsJson, attrsAsIs] = cutAttrs === undefined ? [encoded.attrsJson, encoded.attrsAsIs] : [cutAttrs, false];
    // The payload is serialized once: its JSON decides inline vs artifact and is spliced into the line.
    let inline = payloadJson;
    if (
      payloadJson !== undefined &&
      payloadJson.length > this.options.inlinePayloadBytes / 4 &&
      Buffer.byteLength(payloadJson) > this.options.inlinePayloadBytes
    ) {
      const sha256 = sha256Hex(payloadJson);
      line.payloadRef = { sha256, bytes: Buffer.byteLength(payloadJson), preview: payloadJson.slice(0, 240) };
      this.referenced.add(sha256);
      artifacts.push({ runId, sha256, json: payloadJson });
      inline = undefined;
    }
    for (const sha256 of artifactsOf(attrs)) {
      if (this.referenced.has(sha256)) continue;
      this.referenced.add(sha256);
      artifacts.push({ runId, sha256 });
    }
    countEvent(this.summary, { kind, attrs });
    const head = JSON.stringify(line);
    // `"attrs":{}` is the placeholder the redacted attrs JSON replaces (it is the first `{}` value).
    const withAttrs = head.replace('"attrs":{}', () => `"attrs":${attrsJson}`);
    const text = inline === undefined ? `${withAttrs}\n` : `${withAttrs.slice(0, -1)},"payload":${inline}}\n`;
    this.lines.push(text);
    // The rollup reads the attributes as written (redacted): the object itself when redaction left it as it was, else parsed back.
    const detail = ROLLUP_DETAIL_KINDS.has(kind)
      ? attrsAsIs
        ? attrs
        : (JSON.parse(attrsJson) as Record<string, unknown>)
      : undefined;
    this.rollup?.add(
      {
        kind,
        attrs: detail,
        payload: kind === "custom" ? payload : undefined,
        payloadRef: line.payloadRef,
        redacted: line.redacted,
      },
      Buffer.byteLength(text),
    );
  }

  private noteModel(model: unknown): void {
    const name = this.redactor.redactText(String(model));
    if (!this.manifest.models.includes(name)) this.manifest.models.push(name);
  }
}
