import type { StreamEvent } from "@harnessx/core";
import { badResponse } from "../errors.js";
import { isObject, str } from "../shape.js";
import type { AnthropicReply } from "./response.js";

/**
 * Folds the Messages API SSE events (`message_start`, `content_block_start`,
 * `content_block_delta`, `content_block_stop`, `message_delta`,
 * `message_stop`) into the same reply a non-streamed call gives, yielding
 * text, thinking and tool-argument deltas as they arrive.
 */
export class MessageAccumulator {
  private reply: AnthropicReply | undefined;
  /** Tool argument text by block index; parsed once the stream is whole. */
  private readonly toolInput = new Map<number, string>();
  private stopped = false;

  constructor(private readonly provider: string) {}

  add(event: unknown): StreamEvent[] {
    if (!isObject(event)) throw badResponse(this.provider, "a stream event is not a JSON object");
    if (event.type === "message_start") {
      if (!isObject(event.message)) throw badResponse(this.provider, "message_start has no message");
      const m = event.message;
      this.reply = {
        id: str(m.id),
        model: str(m.model),
        content: [],
        stopReason: null,
        usage: isObject(m.usage) ? { ...m.usage } : {},
      };
      return [];
    }
    if (event.type === "message_stop") {
      this.stopped = true;
      return [];
    }
    const reply = this.reply;
    if (!reply) {
      // `ping` and unknown event types may come at any time; content may not come first.
      if (
        (typeof event.type === "string" && event.type.startsWith("content_block")) ||
        event.type === "message_delta"
      ) {
        throw badResponse(this.provider, `${event.type} arrived before message_start`);
      }
      return [];
    }
    switch (event.type) {
      case "content_block_start":
        return this.start(reply, event);
      case "content_block_delta":
        return this.delta(reply, event);
      case "message_delta":
        if (isObject(event.delta) && typeof event.delta.stop_reason === "string")
          reply.stopReason = event.delta.stop_reason;
        // Counts in message_delta are cumulative; null ones keep the message_start value.
        if (isObject(event.usage)) for (const [k, v] of Object.entries(event.usage)) if (v !== null) reply.usage[k] = v;
        return [];
      default:
        return [];
    }
  }

  private start(reply: AnthropicReply, event: Record<string, unknown>): StreamEvent[] {
    const index = blockIndex(event, this.provider);
    if (!isObject(event.content_block) || typeof event.content_block.type !== "string") {
      throw badResponse(this.provider, `content_block_start ${index} has no typed content_block`);
    }
    const block = { ...event.content_block };
    reply.content[index] = block;
    if (block.type === "tool_use" || block.type === "server_tool_use") this.toolInput.set(index, "");
    return block.type === "tool_use"
      ? [{ type: "tool_call_delta", id: str(block.id), name: str(block.name), argumentsDelta: "" }]
      : [];
  }

  private delta(reply: AnthropicReply, event: Record<string, unknown>): StreamEvent[] {
    const index = blockIndex(event, this.provider);
    const block = reply.content[index];
    const delta = event.delta;
    if (!block) throw badResponse(this.provider, `content_block_delta for block ${index}, which never started`);
    if (!isObject(delta)) return [];
    switch (delta.type) {
      case "text_delta":
        block.text = str(block.text) + str(delta.text);
        return [{ type: "text_delta", text: str(delta.text) }];
      case "thinking_delta":
        block.thinking = str(block.thinking) + str(delta.thinking);
        return [{ type: "reasoning_delta", text: str(delta.thinking) }];
      case "signature_delta":
        block.signature = str(block.signature) + str(delta.signature);
        return [];
      case "input_json_delta": {
        const part = str(delta.partial_json);
        this.toolInput.set(index, (this.toolInput.get(index) ?? "") + part);
        return block.type === "tool_use"
          ? [{ type: "tool_call_delta", id: str(block.id), name: str(block.name), argumentsDelta: part }]
          : [];
      }
      case "citations_delta":
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return [];
      default:
        return [];
    }
  }

  /** The whole reply and the raw tool argument text; a stream cut before `message_stop` is unusable. */
  finish(): { reply: AnthropicReply; toolInput: ReadonlyMap<number, string> } {
    if (!this.reply || !this.stopped) throw badResponse(this.provider, "the stream ended before message_stop");
    // biome-ignore lint/complexity/useIndexOf: content is sparse when a block index was skipped; findIndex visits holes, indexOf skips them
    const holes = this.reply.content.findIndex((b) => b === undefined);
    if (holes !== -1) throw badResponse(this.provider, `content block ${holes} never started`);
    // Argument text, when any came, replaces the start block's input (`{}` in the API's streams).
    const streamed = new Map([...this.toolInput].filter(([, raw]) => raw.trim() !== ""));
    for (const [index, raw] of streamed) {
      // No holes (checked above), and toolInput only has indexes of started blocks.
      const block = this.reply.content[index]!;
      if (block.type !== "server_tool_use") continue;
      // Server tool blocks are opaque: they carry their input as the object the API would have sent.
      try {
        block.input = JSON.parse(raw);
      } catch {
        throw badResponse(this.provider, `server tool block ${index} has unreadable input JSON`);
      }
      streamed.delete(index);
    }
    return { reply: this.reply, toolInput: streamed };
  }
}

function blockIndex(event: Record<string, unknown>, provider: string): number {
  const index = event.index;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 10_000) {
    throw badResponse(provider, `${String(event.type)} has no valid block index`);
  }
  return index;
}
