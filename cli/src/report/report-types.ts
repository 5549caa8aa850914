// The run, calls and events a report shows: what commands fill from a recording and the error list reads.

/** The run a report is about. Times are epoch milliseconds. */
export interface ReportRun {
  runId: string;
  agent?: string;
  model?: string;
  status: string;
  /** What the run failed with (the message; the header shows it after `errorClass`). */
  error?: string;
  /** The class of the run's error, e.g. `ProviderError`. */
  errorClass?: string;
  startTs: number;
  endTs?: number;
  /** Redaction rules the recorder applied, as recorded. */
  redaction?: string[];
  droppedEvents?: number;
}

/** One model call, tool call or the run itself. Times are epoch milliseconds. */
export interface ReportSpan {
  spanId: string;
  parentSpanId?: string;
  kind: "run" | "model" | "tool" | string;
  name: string;
  startTs: number;
  endTs?: number;
  error?: string;
  /** The class of the call's error: the thrown error's name, else the tool call's outcome (`timeout`, `denied`). */
  errorClass?: string;
  model?: string;
  tool?: string;
  inputTokens?: number;
  outputTokens?: number;
}

export interface ReportEvent {
  seq: number;
  ts: number;
  spanId?: string;
  kind: string;
  /** The recorded payload (artifacts already inlined), redacted as recorded; unused when `ReportData.payloads` holds them. */
  payload?: unknown;
  /** What an ERROR event said (else it is read from its payload); for a command, a skill, a compaction or a custom event, its one-line summary. */
  message?: string;
  /** An ERROR event's error class (else it is read from its payload). */
  errorClass?: string;
}
