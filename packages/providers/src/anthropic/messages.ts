import type { ContentBlock, Message, ToolDefinition } from "@harnessx/core";
import type { ContentBlockParam, MessageParam, Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { ANTHROPIC_VENDOR } from "./vendor.js";

/**
 * Canonical conversation -> Messages API turns. Signed reasoning goes back as
 * the exact `thinking` block it came from and opaque Anthropic blocks as their
 * raw JSON; unsigned reasoning and other vendors' blocks are left out (the API
 * would reject them). Consecutive same-role turns are merged, with tool results
 * first in a user turn, as the API requires. `turnOf`, when given, gets each message's turn index
 * (the last turn so far for a message that adds no block; -1 before the first).
 */
export function toAnthropicMessages(messages: readonly Message[], turnOf?: number[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    if (turnOf) turnOf.push(-1);
    const blocks = message.role === "user" ? userBlocks(message.content) : message.content.flatMap(assistantBlock);
    if (blocks.length > 0) {
      const last = out[out.length - 1];
      if (last && last.role === message.role) {
        last.content =
          message.role === "user"
            ? toolResultsFirst([...(last.content as ContentBlockParam[]), ...blocks])
            : [...(last.content as ContentBlockParam[]), ...blocks];
      } else {
        out.push({ role: message.role, content: blocks });
      }
    }
    if (turnOf) turnOf[turnOf.length - 1] = out.length - 1;
  }
  return out;
}

function userBlocks(content: Extract<Message, { role: "user" }>["content"]): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const block of content) {
    if (block.type === "tool_result") {
      const result: ToolResultBlockParam = {
        type: "tool_result",
        tool_use_id: block.toolCallId,
        content: block.content,
      };
      blocks.push(block.isError ? { ...result, is_error: true } : result);
    } else if (block.text) {
      blocks.push({ type: "text", text: block.text });
    }
  }
  return toolResultsFirst(blocks);
}

function toolResultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  return [...blocks.filter((b) => b.type === "tool_result"), ...blocks.filter((b) => b.type !== "tool_result")];
}

function assistantBlock(block: ContentBlock): ContentBlockParam[] {
  switch (block.type) {
    case "text":
      return block.text ? [{ type: "text", text: block.text }] : [];
    case "tool_call":
      return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
    case "reasoning":
      // Key order as the API sends it, so the block goes back byte for byte.
      return block.signature !== undefined
        ? [{ type: "thinking", thinking: block.text, signature: block.signature }]
        : [];
    case "provider":
      return block.provider === ANTHROPIC_VENDOR ? [block.data as ContentBlockParam] : [];
  }
}

/** Canonical tools -> Messages API tools with `input_schema`. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Tool["input_schema"],
  }));
}
