import type { ToolSummary } from "@harnessx/core";
import type { ExtensionSummary, RedactionDescription } from "@harnessx/core/extension";
import type { RunRollup } from "./rollup-types.js";
import type { ResolvedRetainPolicy } from "./retain-types.js";

/** Version of the event line format (`v` of every line). */
export const EVENT_FORMAT_VERSION = 1;

/** Where a payload too large to inline went: an artifact of the store. */
export interface PayloadRef {
  /** Artifact id of the payload's (redacted) JSON in the store. */
  sha256: string;
  /** Uncompressed bytes of the payload's JSON. */
  bytes: number;
  /** The first characters of the (redacted) JSON, for listings. */
  preview: string;
}

/** The recorder's own kinds, besides the hook event names (`llm_request`, `tool_call_end`, ...). */
export type RecorderEventKind = "recorder.dropped" | "recorder.recovered";

/** One line of a segment. */
export interface RecordedEvent {
  /** Line format version, always `EVENT_FORMAT_VERSION`. */
  v: typeof EVENT_FORMAT_VERSION;
  /** 1, 2, 3... within the run, without gaps (drops are recorded as `recorder.dropped`). */
  seq: number;
  /** Milliseconds since the epoch when the event happened. */
  ts: number;
  /** The run this event belongs to. */
  runId: string;
  /**
   * The span this event opens, closes or belongs to: the run span (AGENT_START/AGENT_END),
   * a model-call span (LLM_REQUEST..LLM_RESPONSE) or a tool-call span (TOOL_CALL_START..END).
   * Null for point events, which hang under `parentSpanId`.
   */
  spanId: string | null;
  /**
   * For a span event, the span its span hangs under (null for the run span); for a point event,
   * the span it happened in. Null as well when core stamped no span on the event.
   */
  parentSpanId: string | null;
  /** The hook event name or a recorder kind. */
  kind: string;
  /** Small, always-present facts for listings and SQL (tool name, tokens, status...). */
  attrs: Record<string, unknown>;
  /** The event's data (after redaction), inline; absent when the event has none or it was moved to `payloadRef`. */
  payload?: unknown;
  /** Where the payload went instead when its JSON exceeded `inlinePayloadBytes` (default 64 KiB); else absent. */
  payloadRef?: PayloadRef;
  /** JSON paths whose values were redacted before writing (e.g. `payload.toolCall.input.apiKey`). */
  redacted?: string[];
}

/** Status of a recorded run, as in `run.json`. */
export type RecordedRunStatus =
  | "running"
  | "completed"
  | "failed"
  | "cancelled"
  | "awaiting_approval"
  /** The process ended (or the agent closed) while the run was open, without a crash. */
  | "incomplete"
  /** The process died with the run open; sealed by `recover`. */
  | "crashed";

/** Per-run totals written to `run.json` when the run ends or is recovered. */
export interface RunSummary {
  /** Events recorded, the recorder's own included (the last `seq`). */
  events: number;
  /** Events recorded per `kind`. */
  byKind: Record<string, number>;
  /** Input tokens reported by every model reply, summed. */
  inputTokens: number;
  /** Output tokens reported by every model reply, summed. */
  outputTokens: number;
  /** Model replies received (`llm_response` events). */
  modelCalls: number;
  /** Tool calls that finished (`tool_call_end` events), failed ones included. */
  toolCalls: number;
  /** Errors as `isErrorEvent` counts them: `error` events and tool calls that did not execute cleanly. */
  errors: number;
  /** Events lost because the recorder's queue was full (each gap is a `recorder.dropped` event). */
  dropped: number;
}

/** `runs/<runId>/run.json`. */
export interface RunManifest {
  /** Identifies the file as a run manifest. */
  format: "harnessx.run";
  /** Manifest version; readers refuse versions they do not know. */
  v: 1;
  /** The run's id (also its folder name). */
  runId: string;
  /** The W3C trace id of the run's spans (the live trace id when the OpenTelemetry extension is installed). */
  traceId?: string;
  /** Span id of the run span (parent of its model and tool-call spans); `""` when core stamped none. */
  runSpanId: string;
  /** The run whose tool call started this one (a subagent's run, `agent.asTool`); absent for a top-level run. */
  parentRunId?: string;
  /** The parent run's `execute_tool` span this run's span hangs under; set with `parentRunId`. */
  parentSpanId?: string;
  /** The agent's name (redacted). */
  agent: string;
  /** The framework that made the run when harnessx did not (`ai-sdk`, `openai-agents`: its `harnessx.framework` run attribute); absent for harnessx's own runs. */
  framework?: string;
  /** The run's application metadata (`RunOptions.metadata` over `AgentOptions.metadata`), redacted; absent when none was given. */
  metadata?: Record<string, string | number | boolean>;
  /** The run's tags (`AgentOptions.tags`, then `RunOptions.tags`), redacted; absent when none was given. */
  tags?: string[];
  /** The session the run belongs to (redacted). */
  sessionId: string;
  /** True for a durable run (`AgentOptions.durable`): after a crash, `agent.resume(runId)` continues it, and its recording with it. Absent otherwise. */
  durable?: boolean;
  /** Every model the run requested or got a reply from, in first-use order (redacted). */
  models: string[];
  /** Where the run stands; `running` while it is open. */
  status: RecordedRunStatus;
  /** Milliseconds since the epoch when the run started. */
  startedAt: number;
  /** Milliseconds since the epoch when the run ended; null while it is open. */
  endedAt: number | null;
  /** Versions of the software that wrote the recording. */
  producer: {
    /** Version of `@harnessx/recorder`. */
    recorder: string;
    /** Version of `@harnessx/core`, or `"unknown"` when it could not be resolved. */
    core: string;
    /** Node.js version, e.g. `"v20.19.0"`. */
    node: string;
  };
  /** Id of the process recording the run (the last one, for a resumed run); `recover` checks it is gone. */
  pid: number;
  /** Host the run was recorded on (`os.hostname()`): the `host` column of the `runs` table. */
  hostname: string;
  /** The service the run belongs to: `OTEL_SERVICE_NAME` or `service.name` in `OTEL_RESOURCE_ATTRIBUTES` when set, else the agent's name (redacted). Absent in older recordings. */
  service?: string;
  /** The agent's config after redaction. */
  config: unknown;
  /** The provider's name (`openai`, `anthropic`, `scripted`, ...). Absent in older recordings. */
  provider?: string;
  /** The tools offered when the run started: digests of their definitions and their execution settings (after redaction). Absent in older recordings. */
  tools?: ToolSummary[];
  /**
   * The agent's extensions when the run started, in install order: trust level, source file
   * and the ids of everything each contributed (after redaction). Absent in older recordings.
   */
  extensions?: ExtensionSummary[];
  /** Why the run failed (redacted); absent when it did not fail with an error. */
  error?: {
    /** The error's class name, e.g. `"ProviderError"`. */
    name: string;
    /** The error's message. */
    message: string;
    /** The harnessx error code (`HarnessError.code`), when the error had one. */
    code?: string;
  };
  /** Totals so far; absent only in older recordings. */
  summary?: RunSummary;
  /** Bytes, tokens, tool latencies, spills and redactions of an ended run (see `RunRollup`); absent while it is open, after a crash and in older recordings. */
  rollup?: RunRollup;
  /** Redaction rules applied at the source, or "off". */
  redaction?:
    | (RedactionDescription & {
        /** True when a `customRedact` function also ran on every event. */
        custom: boolean;
      })
    | "off";
  /** Artifacts the run's events reference (payloadRef and CUSTOM events with a `sha256`). */
  artifacts: string[];
  /** The recorder's tail-retention policy when the run started (`retain` option); absent when every run keeps its events. */
  retain?: ResolvedRetainPolicy;
  /** `"summary"`: the run's events were deleted after it ended and only this file remains (see `reducedBy`); absent when the events are kept. */
  detail?: "summary";
  /** What reduced the run to its summary: `"retain"`, its tail-retention policy. */
  reducedBy?: "retain";
}

/** Sidecar `NNNNNN.ndjson.zst.sha256` written when a segment is sealed. */
export interface SealedSegmentInfo {
  /** sha256 of the `.zst` file as stored. */
  sha256: string;
  /**
   * sha256 of the decompressed NDJSON, in older sidecars only. Nothing reads it: the frame's
   * sha256 covers the stored bytes, and hashing the content cost a tenth of the recorder's time.
   */
  contentSha256?: string;
  /** Size of the plain NDJSON, in bytes. */
  bytes: number;
  /** Size of the `.zst` file, in bytes. */
  compressedBytes: number;
  /** Lines (events) in the segment. */
  events: number;
  /** `seq` of the segment's first event; null when the segment is empty or that line has no `seq`. */
  firstSeq: number | null;
  /** `seq` of the segment's last event; null like `firstSeq`. */
  lastSeq: number | null;
}
