import type { ContentBlock, Message, TextBlock, ToolResultBlock, Usage } from "@harnessx/core";
import { outputText, toolInput } from "../tool-values.js";

// How the Agents SDK's conversation items become harnessx messages and reply blocks: the one
// translation the recording uses. Model spans carry the SDK's own items (a custom `Model`, the
// AI SDK adapter), Chat Completions messages (`generation` spans of the chat model) or Responses
// API items (`response` spans); all three read the same way. An item of no known shape is left out.

type Item = Record<string, unknown>;

/** One piece of a conversation, whatever format it came in. */
type Piece =
  | { kind: "text"; role: "system" | "user" | "assistant"; text: string }
  | { kind: "call"; id: string; name: string; args: unknown }
  | { kind: "result"; id: string; name: string; text: string }
  | { kind: "reasoning"; text: string };

const isItem = (value: unknown): value is Item => value !== null && typeof value === "object" && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** The text of message content: a string, or parts with `text` (input_text, output_text, text, refusal). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isItem(part) ? str(part.text) || str(part.refusal) : typeof part === "string" ? part : ""))
    .join("");
}

/** A tool call's arguments: the model's JSON text parsed to an object (text that is not JSON is kept under `input`). */
export function argumentsOf(args: unknown): Record<string, unknown> {
  if (typeof args !== "string") return toolInput(args);
  try {
    return toolInput(JSON.parse(args));
  } catch {
    return { input: args };
  }
}

function resultText(output: unknown): string {
  if (isItem(output) && typeof output.text === "string") return output.text;
  if (Array.isArray(output)) return contentText(output);
  return outputText(output);
}

function piecesOf(item: unknown): Piece[] {
  if (!isItem(item)) return typeof item === "string" ? [{ kind: "text", role: "user", text: item }] : [];
  const type = str(item.type);
  if (type === "function_call")
    return [
      {
        kind: "call",
        id: str(item.callId) || str(item.call_id) || str(item.id),
        name: str(item.name),
        args: item.arguments,
      },
    ];
  if (type === "function_call_result" || type === "function_call_output") {
    return [
      {
        kind: "result",
        id: str(item.callId) || str(item.call_id),
        name: str(item.name),
        text: resultText(item.output),
      },
    ];
  }
  if (type === "reasoning")
    return [
      {
        kind: "reasoning",
        text: contentText(item.rawContent) || contentText(item.content) || contentText(item.summary),
      },
    ];
  const role = str(item.role);
  if (role === "tool")
    return [{ kind: "result", id: str(item.tool_call_id), name: str(item.name), text: contentText(item.content) }];
  const pieces: Piece[] = [];
  if (role === "system" || role === "developer")
    pieces.push({ kind: "text", role: "system", text: contentText(item.content) });
  else if (role === "user" || role === "assistant") {
    const text = contentText(item.content);
    if (text !== "") pieces.push({ kind: "text", role, text });
  }
  if (role === "assistant" && Array.isArray(item.tool_calls)) {
    for (const call of item.tool_calls) {
      const fn = isItem(call) && isItem(call.function) ? call.function : {};
      pieces.push({ kind: "call", id: isItem(call) ? str(call.id) : "", name: str(fn.name), args: fn.arguments });
    }
  }
  return pieces;
}

/** Items of a model output: the SDK's items, or the choices of a chat completion, or a Responses API response. */
function outputItems(output: unknown): unknown[] {
  const list = Array.isArray(output) ? output : [output];
  return list.flatMap((entry) => {
    if (isItem(entry) && Array.isArray(entry.choices))
      return entry.choices.map((c) => (isItem(c) ? c.message : undefined));
    if (isItem(entry) && Array.isArray(entry.output)) return entry.output;
    return [entry];
  });
}

/** A model call's request as harnessx messages, with the system text (system and developer messages) apart. */
export function requestMessages(input: unknown): { system: string; messages: Message[] } {
  const items = Array.isArray(input) ? input : input === undefined ? [] : [input];
  const system: string[] = [];
  const messages: Message[] = [];
  const push = (role: "user" | "assistant", block: ContentBlock | ToolResultBlock) => {
    const last = messages.at(-1);
    if (last?.role === role) (last.content as Array<ContentBlock | ToolResultBlock>).push(block);
    else
      messages.push(
        role === "user"
          ? { role, content: [block as TextBlock | ToolResultBlock] }
          : { role, content: [block as ContentBlock] },
      );
  };
  for (const piece of items.flatMap(piecesOf)) {
    if (piece.kind === "text" && piece.role === "system") system.push(piece.text);
    else if (piece.kind === "text")
      push(piece.role === "assistant" ? "assistant" : "user", { type: "text", text: piece.text });
    else if (piece.kind === "call")
      push("assistant", { type: "tool_call", id: piece.id, name: piece.name, input: argumentsOf(piece.args) });
    else if (piece.kind === "result")
      push("user", {
        type: "tool_result",
        toolCallId: piece.id,
        name: piece.name,
        content: piece.text,
        isError: false,
      });
    else push("assistant", { type: "reasoning", text: piece.text });
  }
  return { system: system.join("\n\n"), messages };
}

/** A model call's reply blocks: text, reasoning and tool calls, in reply order. */
export function replyBlocks(output: unknown): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const piece of outputItems(output).flatMap(piecesOf)) {
    if (piece.kind === "text" && piece.role !== "system") blocks.push({ type: "text", text: piece.text });
    else if (piece.kind === "call")
      blocks.push({ type: "tool_call", id: piece.id, name: piece.name, input: argumentsOf(piece.args) });
    else if (piece.kind === "reasoning") blocks.push({ type: "reasoning", text: piece.text });
  }
  return blocks;
}

/** The text of the last user message: a run's input. */
export function lastUserText(messages: readonly Message[]): string {
  const user = [...messages].reverse().find((m) => m.role === "user" && m.content.some((b) => b.type === "text"));
  return user ? user.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";
}

/** The text blocks of a reply joined: a run's answer. */
export function answerText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

/**
 * Token counts in any of the shapes the SDK's spans carry them: a generation span's `usage`
 * (`input_tokens`, `output_tokens`, cached tokens in `details` or `input_tokens_details`), a
 * Responses API usage, a Chat Completions usage (`prompt_tokens`...), or a turn span's
 * (`cached_input_tokens`, `cache_write_input_tokens`). Undefined when none is there.
 */
export function usageOf(usage: unknown): Usage | undefined {
  if (!isItem(usage)) return undefined;
  const input = count(usage.input_tokens) ?? count(usage.prompt_tokens) ?? count(usage.inputTokens);
  const output = count(usage.output_tokens) ?? count(usage.completion_tokens) ?? count(usage.outputTokens);
  if (input === undefined && output === undefined) return undefined;
  const details = [usage.details, usage.input_tokens_details, usage.prompt_tokens_details].find(isItem) ?? {};
  const cacheRead =
    count(usage.cached_input_tokens) ?? count(details.cached_tokens) ?? count(details.cached_input_tokens);
  const cacheWrite = count(usage.cache_write_input_tokens) ?? count(details.cache_write_tokens);
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite !== undefined ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

/** The usage inside a raw model output (a chat completion or a Responses API response), if any. */
export function outputUsage(output: unknown): Usage | undefined {
  for (const entry of Array.isArray(output) ? output : [output]) {
    const usage = isItem(entry) ? usageOf(entry.usage) : undefined;
    if (usage) return usage;
  }
  return undefined;
}
