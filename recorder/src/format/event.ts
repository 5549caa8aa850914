import type { ExtensionSummary, RedactionDescription, ToolSummary } from "@harnessx/core";

/** Version of the event line format (`v` of every line). */
export const EVENT_FORMAT_VERSION = 1;

/** Where a payload too large to inline went: an artifact of the store. */
export interface PayloadRef {
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
  v: typeof EVENT_FORMAT_VERSION;
  /** 1, 2, 3... within the run, without gaps (drops are recorded as `recorder.dropped`). */
  seq: number;
  /** Milliseconds since the epoch when the event happened. */
  ts: number;
  runId: string;
  /**
   * The span this event opens, closes or belongs to: the run span (AGENT_START/AGENT_END),
   * a model-call span (LLM_REQUEST..LLM_RESPONSE) or a tool-call span (TOOL_CALL_START..END).
   * Null for point events, which hang under `parentSpanId`.
   */
  spanId: string | null;
  parentSpanId: string | null;
  /** The hook event name or a recorder kind. */
  kind: string;
  /** Small, always-present facts for listings and SQL (tool name, tokens, status...). */
  attrs: Record<string, unknown>;
  payload?: unknown;
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
  events: number;
  byKind: Record<string, number>;
  inputTokens: number;
  outputTokens: number;
  modelCalls: number;
  toolCalls: number;
  errors: number;
  dropped: number;
}

/** `runs/<runId>/run.json`. */
export interface RunManifest {
  format: "harnessx.run";
  v: 1;
  runId: string;
  /** The W3C trace id of the run's spans (the live trace id when the OpenTelemetry extension is installed). */
  traceId?: string;
  runSpanId: string;
  agent: string;
  sessionId: string;
  models: string[];
  status: RecordedRunStatus;
  startedAt: number;
  endedAt: number | null;
  producer: { recorder: string; core: string; node: string };
  pid: number;
  hostname: string;
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
  error?: { name: string; message: string; code?: string };
  summary?: RunSummary;
  /** Redaction rules applied at the source, or "off". */
  redaction?: (RedactionDescription & { custom: boolean }) | "off";
  /** Artifacts the run's events reference (payloadRef and CUSTOM events with a `sha256`). */
  artifacts: string[];
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
  bytes: number;
  compressedBytes: number;
  events: number;
  firstSeq: number | null;
  lastSeq: number | null;
}
