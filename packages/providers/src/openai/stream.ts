import type { StreamEvent } from "@harnessx/core";
import { newId } from "@harnessx/core/extension";
import type { CompletionUsage } from "openai/resources/completions";
import { badResponse } from "../errors.js";
import { isObject, str } from "../shape.js";
import type { ChatReply } from "./response.js";

interface ToolSlot {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Folds `chat.completion.chunk`s into the same `ChatReply` a non-streamed call
 * gives, yielding deltas as they come. Tool calls are keyed by their `index`:
 * id and name arrive in the first fragment, the argument text across later ones.
 */
export class ChunkAccumulator {
  private id = "";
  private model = "";
  private text = "";
  private reasoning = "";
  private refusal = "";
  private readonly slots = new Map<number, ToolSlot>();
  private finishReason: string | null = null;
  private usage: CompletionUsage | undefined;

  constructor(private readonly provider: string) {}

  /** Takes one chunk; returns the deltas it carried, in order. */
  add(chunk: unknown): StreamEvent[] {
    if (!isObject(chunk)) throw badResponse(this.provider, "a stream chunk is not a JSON object");
    this.id ||= str(chunk.id);
    this.model ||= str(chunk.model);
    if (isObject(chunk.usage)) this.usage = chunk.usage as unknown as CompletionUsage;
    // vLLM sends `choices: null` in its usage chunk; OpenAI an empty array.
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const events: StreamEvent[] = [];
    for (const choice of choices) {
      if (!isObject(choice) || (choice.index ?? 0) !== 0) continue;
      if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
      if (isObject(choice.delta)) this.addDelta(choice.delta, events);
    }
    return events;
  }

  private addDelta(delta: Record<string, unknown>, events: StreamEvent[]): void {
    const reasoning = str(delta.reasoning_content) || str(delta.reasoning);
    if (reasoning) {
      this.reasoning += reasoning;
      events.push({ type: "reasoning_delta", text: reasoning });
    }
    const text = str(delta.content);
    if (text) {
      this.text += text;
      events.push({ type: "text_delta", text });
    }
    this.refusal += str(delta.refusal);
    if (!Array.isArray(delta.tool_calls)) return;
    delta.tool_calls.forEach((fragment: unknown, position) => {
      if (!isObject(fragment)) return;
      const index = typeof fragment.index === "number" ? fragment.index : position;
      const fn = isObject(fragment.function) ? fragment.function : {};
      let slot = this.slots.get(index);
      const isNew = !slot;
      if (!slot) {
        slot = { id: str(fragment.id) || newId("call"), name: "", arguments: "" };
        this.slots.set(index, slot);
      }
      slot.name ||= str(fn.name);
      const args = str(fn.arguments);
      slot.arguments += args;
      if (isNew || args) events.push({ type: "tool_call_delta", id: slot.id, name: slot.name, argumentsDelta: args });
    });
  }

  /** The whole reply; a stream cut before any finish_reason is an unusable reply, not a short one. */
  finish(): ChatReply {
    if (this.finishReason === null)
      throw badResponse(this.provider, "the stream ended before the model finished (no finish_reason)");
    return {
      id: this.id,
      model: this.model,
      text: this.text,
      reasoning: this.reasoning,
      refusal: this.refusal,
      toolCalls: [...this.slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot),
      finishReason: this.finishReason,
      usage: this.usage,
    };
  }
}
