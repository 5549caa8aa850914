import type { LatencySketchData } from "./latency-sketch.js";

/** Model calls of one model in a `RunRollup`. */
export interface ModelRollup {
  /** Replies received (`llm_response` events). */
  calls: number;
  /** Input tokens of those replies, summed. */
  inputTokens: number;
  /** Output tokens of those replies, summed. */
  outputTokens: number;
  /** Input tokens read from the prompt cache, summed; absent while no reply reported it. */
  cacheReadTokens?: number;
  /** Input tokens written to the prompt cache, summed; absent while no reply reported it. */
  cacheWriteTokens?: number;
  /** What the priced replies cost in US dollars, summed; null when none was priced (absent in recordings made before cost). */
  costUsd?: number | null;
  /** Replies without a price (their cost is unknown, not 0). */
  unpricedCalls?: number;
}

/** Finished calls of one tool in a `RunRollup`. */
export interface ToolRollup {
  /** Calls that finished (`tool_call_end` events). */
  calls: number;
  /** Calls that did not execute cleanly (`isErrorEvent`). */
  errors: number;
  /** Their durations in milliseconds. */
  latency: LatencySketchData;
  /**
   * What the model calls that asked for this tool cost in US dollars, each reply's cost shared
   * evenly among the tool calls it asked for: the cost of the chain that led to the tool. Null
   * when none of those calls was priced; absent in recordings made before it was kept.
   */
  costUsd?: number | null;
}

/**
 * What `trace summary` shows of a run beyond `RunSummary`, kept as the run is recorded so an
 * ended run's summary reads `run.json` alone instead of every event. Written by the recorder,
 * by `recover` and by `SealedRunWriter`; absent in older recordings (readers then scan).
 */
export interface RunRollup {
  /** Bytes per event kind: each line with its newline, plus a payload stored aside. */
  bytesByKind: Record<string, number>;
  /** Per model (`attrs.model` of each reply, `unknown` when absent). */
  models: Record<string, ModelRollup>;
  /** Per tool (`attrs.toolName` of each finished call, `unknown` when absent). */
  tools: Record<string, ToolRollup>;
  /** Results spilled by `read_result` (CUSTOM `spill` events). */
  spills: {
    /** Results spilled. */
    count: number;
    /** Their bytes, as the spill events report them. */
    bytes: number;
  };
  /** Values redacted at the source (paths listed on the events). */
  redactedValues: number;
}
