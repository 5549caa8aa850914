/** A text block, in user or assistant messages. */
export interface TextBlock {
  /** Discriminant: always `"text"`. */
  type: "text";
  /** The text itself; a reply may split its text across several blocks. */
  text: string;
}

/**
 * A tool call requested by the model. `parseError` is set by a provider adapter
 * when the model's argument text could not be read as a JSON object; `rawInput`
 * then keeps that text so the engine can ask again or report it.
 */
export interface ToolCallBlock {
  /** Discriminant: always `"tool_call"`. */
  type: "tool_call";
  /** The provider's id for the call (non-empty); the matching result carries it as `toolCallId`. */
  id: string;
  /** Name of the tool the model asked for (it may name no registered tool). */
  name: string;
  /** The parsed arguments; `{}` when they could not be read (see `parseError`). */
  input: Record<string, unknown>;
  /** The model's argument text as it came; set only together with `parseError`. */
  rawInput?: string;
  /** Why the argument text is not a JSON object; absent when it parsed. */
  parseError?: string;
}

/** Model reasoning. A block with a `signature` belongs to the provider and is immutable. */
export interface ReasoningBlock {
  /** Discriminant: always `"reasoning"`. */
  type: "reasoning";
  /** The reasoning text, as the provider exposes it. */
  text: string;
  /** The provider's signature over the block (Anthropic thinking); absent for unsigned reasoning. */
  signature?: string;
}

/** Provider-owned data kept byte for byte and sent back unchanged (e.g. redacted thinking). */
export interface ProviderBlock {
  /** Discriminant: always `"provider"`. */
  type: "provider";
  /** The vendor the data belongs to (e.g. `anthropic`); only that vendor's adapter sends the block back. */
  provider: string;
  /** The vendor's raw JSON for the block, opaque to harnessx. */
  data: unknown;
}

/** The outcome of a tool call, sent back to the model in a user message. */
export interface ToolResultBlock {
  /** Discriminant: always `"tool_result"`. */
  type: "tool_result";
  /** The `id` of the tool call this answers. */
  toolCallId: string;
  /** Name of the tool that was called. */
  name: string;
  /** The result text the model reads, cut to the agent's `maxResultChars` (default 100,000 characters) with a marker. */
  content: string;
  /** True when the call failed or was refused; `content` then explains why. */
  isError: boolean;
}

/** Blocks a model may produce. */
export type ContentBlock = TextBlock | ToolCallBlock | ReasoningBlock | ProviderBlock;

/** A message from the user side: the user's text, engine notes to the model, and tool results. */
export interface UserMessage {
  /** Discriminant: always `"user"`. */
  role: "user";
  /** Text blocks and the results of the previous reply's tool calls. */
  content: Array<TextBlock | ToolResultBlock>;
}

/** A model reply as kept in the conversation. */
export interface AssistantMessage {
  /** Discriminant: always `"assistant"`. */
  role: "assistant";
  /** The reply's blocks, in the order the model produced them. */
  content: ContentBlock[];
}

/** One message of the conversation sent to the model; narrow on `role`. */
export type Message = UserMessage | AssistantMessage;

/** A tool call as the engine and middleware see it. */
export interface ToolCall {
  /** The provider's id for the call; results must keep it as `toolCallId`. */
  id: string;
  /** Name of the tool to run. */
  name: string;
  /** The arguments: a JSON object, checked against the tool's schema before the tool runs. */
  input: Record<string, unknown>;
}

/** A tool call's outcome. Middleware must keep `toolCallId` and should keep `isError`. */
export interface ToolResult {
  /** The `id` of the call this answers. */
  toolCallId: string;
  /** Name of the tool that was called. */
  name: string;
  /** The whole result text; it is cut to `maxResultChars` only when it enters the conversation. */
  content: string;
  /** True when the call failed, timed out or was refused; `content` then says why. */
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
  /** SHA-256 of the stored bytes, lowercase hex: the key in the artifact store. */
  sha256: string;
  /** Size of the stored content, in bytes. */
  bytes: number;
  /** `application/json`, `text/csv`, `application/x-ndjson`, `text/plain`... */
  mediaType: string;
  /** The id the model uses for it (a spilled result's `resultId`). */
  id?: string;
}

/** Token usage of one model call, or summed over a run. */
export interface Usage {
  /** Prompt tokens, cache reads and writes included. */
  inputTokens: number;
  /** Tokens the model generated in its reply. */
  outputTokens: number;
  /** Part of `inputTokens` read from the provider's prompt cache; absent when the provider does not report it. */
  cacheReadTokens?: number;
  /** Part of `inputTokens` written to the prompt cache; absent when the provider does not report it. */
  cacheWriteTokens?: number;
}
