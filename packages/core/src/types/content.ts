/** A text block, in user or assistant messages. */
export interface TextBlock {
  type: "text";
  text: string;
}

/**
 * A tool call requested by the model. `parseError` is set by a provider adapter
 * when the model's argument text could not be read as a JSON object; `rawInput`
 * then keeps that text so the engine can ask again or report it.
 */
export interface ToolCallBlock {
  type: "tool_call";
  id: string;
  name: string;
  input: Record<string, unknown>;
  rawInput?: string;
  parseError?: string;
}

/** Model reasoning. A block with a `signature` belongs to the provider and is immutable. */
export interface ReasoningBlock {
  type: "reasoning";
  text: string;
  signature?: string;
}

/** Provider-owned data kept byte for byte and sent back unchanged (e.g. redacted thinking). */
export interface ProviderBlock {
  type: "provider";
  provider: string;
  data: unknown;
}

/** The outcome of a tool call, sent back to the model in a user message. */
export interface ToolResultBlock {
  type: "tool_result";
  toolCallId: string;
  name: string;
  content: string;
  isError: boolean;
}

/** Blocks a model may produce. */
export type ContentBlock = TextBlock | ToolCallBlock | ReasoningBlock | ProviderBlock;

export interface UserMessage {
  role: "user";
  content: Array<TextBlock | ToolResultBlock>;
}

export interface AssistantMessage {
  role: "assistant";
  content: ContentBlock[];
}

export type Message = UserMessage | AssistantMessage;

/** A tool call as the engine and middleware see it. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A tool call's outcome. Middleware must keep `toolCallId` and should keep `isError`. */
export interface ToolResult {
  toolCallId: string;
  name: string;
  content: string;
  isError: boolean;
  /**
   * Content stored aside (a spilled result): the model reads `content` (an envelope, a preview)
   * and the whole of it is in these artifacts. Readers take the reference from here, never from
   * the text.
   */
  artifacts?: readonly ArtifactRef[];
}

/** Content kept in an artifact store, by the sha256 of its bytes. */
export interface ArtifactRef {
  sha256: string;
  bytes: number;
  /** `application/json`, `text/csv`, `application/x-ndjson`, `text/plain`... */
  mediaType: string;
  /** The id the model uses for it (a spilled result's `resultId`). */
  id?: string;
}

/** Token usage of one model call, or summed over a run. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}
