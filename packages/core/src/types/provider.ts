import type { ContentBlock, Message, Usage } from "./content.js";

/** A tool as offered to a model: its name, description and JSON Schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "refusal"
  | "pause_turn";

export const STOP_REASONS: readonly StopReason[] = [
  "end_turn",
  "tool_use",
  "max_tokens",
  "stop_sequence",
  "refusal",
  "pause_turn",
];

/** The canonical request every provider adapter translates to its own API. */
export interface ModelRequest {
  model: string;
  system: string;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  maxTokens: number;
  temperature?: number;
  stream: boolean;
}

/** The canonical reply every provider adapter translates from its own API. */
export interface ProviderResponse {
  id: string;
  model: string;
  provider: string;
  content: ContentBlock[];
  stopReason: StopReason;
  usage: Usage;
}

/**
 * What a streaming provider yields: deltas as they arrive, then exactly one
 * `response` event with the whole canonical reply.
 */
export type StreamEvent =
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "tool_call_delta"; id: string; name: string; argumentsDelta: string }
  | { type: "response"; response: ProviderResponse };

/** A model API. `complete` is required; `stream` is used by `runStream` when present. */
export interface ModelProvider {
  readonly name: string;
  /** Model used when the agent names none. */
  readonly defaultModel?: string;
  /**
   * True when the provider reads a request only while its call runs and keeps no reference to
   * `request.messages` afterwards. The engine then hands it the live history instead of a copy
   * (the history does not change during a call), saving a copy of the whole history per call.
   * Left unset, every request carries its own copy.
   */
  readonly borrowsRequests?: boolean;
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ProviderResponse>;
  stream?(request: ModelRequest, signal?: AbortSignal): AsyncIterable<StreamEvent>;
}
