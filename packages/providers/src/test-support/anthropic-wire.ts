import { jsonReply, pieces, type FakeReply, type RecordedRequest, type Responder } from "./server.js";

/** A content block as the Messages API returns it; `rawInput` scripts the streamed argument text of a tool_use. */
export type WireBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; rawInput?: string }
  | { type: string; [key: string]: unknown };

export interface AnthropicTurn {
  id?: string;
  model?: string;
  content: WireBlock[];
  stopReason: string;
  stopSequence?: string | null;
  usage?: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
}

/** Answers with the JSON message, or the SSE event stream when the request asked to stream. */
export function anthropicTurn(turn: AnthropicTurn): Responder {
  return (request: RecordedRequest): FakeReply =>
    request.body?.stream ? { events: messageEvents(turn) } : jsonReply(message(turn));
}

function usage(turn: AnthropicTurn) {
  const u = turn.usage ?? { input_tokens: 0, output_tokens: 0 };
  const write = u.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: u.input_tokens,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: write, ephemeral_1h_input_tokens: 0 },
    output_tokens: u.output_tokens,
    service_tier: "standard",
  };
}

function wireBlock(block: WireBlock): Record<string, unknown> {
  if (block.type !== "tool_use") return block;
  const { rawInput: _raw, ...rest } = block as Extract<WireBlock, { type: "tool_use" }>;
  return rest;
}

/** The `message` object as the API returns it. */
export function message(turn: AnthropicTurn): Record<string, unknown> {
  return {
    id: turn.id ?? "msg_01XFDUDYJgAACzvnptvVoYEL",
    type: "message",
    role: "assistant",
    model: turn.model ?? "claude-sonnet-4-5-20250929",
    content: turn.content.map(wireBlock),
    stop_reason: turn.stopReason,
    stop_sequence: turn.stopSequence ?? null,
    usage: usage(turn),
  };
}

/** The SSE events the API streams for this turn, in order (ping included, as the API sends one). */
export function messageEvents(turn: AnthropicTurn): string[] {
  const events: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) =>
    events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const full = usage(turn);
  emit("message_start", {
    message: {
      ...message(turn),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...full, output_tokens: 1 },
    },
  });
  turn.content.forEach((block, index) => {
    const delta = (d: Record<string, unknown>) => emit("content_block_delta", { index, delta: d });
    switch (block.type) {
      case "text":
        emit("content_block_start", { index, content_block: { type: "text", text: "" } });
        if (index === 0) emit("ping", {});
        for (const p of pieces(String(block.text), 4)) delta({ type: "text_delta", text: p });
        break;
      case "thinking":
        emit("content_block_start", { index, content_block: { type: "thinking", thinking: "" } });
        for (const p of pieces(String(block.thinking), 8)) delta({ type: "thinking_delta", thinking: p });
        delta({ type: "signature_delta", signature: String(block.signature) });
        break;
      case "tool_use":
      case "server_tool_use": {
        const b = block as Extract<WireBlock, { type: "tool_use" }>;
        emit("content_block_start", { index, content_block: { type: block.type, id: b.id, name: b.name, input: {} } });
        delta({ type: "input_json_delta", partial_json: "" });
        for (const p of pieces(b.rawInput ?? JSON.stringify(b.input), 9))
          delta({ type: "input_json_delta", partial_json: p });
        break;
      }
      default:
        // Blocks without deltas (redacted_thinking, server tool results) arrive whole in their start event.
        emit("content_block_start", { index, content_block: block });
    }
    emit("content_block_stop", { index });
  });
  emit("message_delta", {
    delta: { stop_reason: turn.stopReason, stop_sequence: turn.stopSequence ?? null },
    usage: { output_tokens: full.output_tokens },
  });
  emit("message_stop", {});
  return events;
}

/** An API error reply: `{ type: "error", error: { type, message }, request_id }`. */
export function anthropicErrorReply(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): FakeReply {
  return jsonReply(
    { type: "error", error: { type, message }, request_id: "req_011CSHoEeqs5C35K2UUqR7Fy" },
    status,
    headers,
  );
}
