import { tool, type ModelRequest, type Tool, type ToolDefinition } from "@harnessx/core";
import type { RecordedEvent } from "@harnessx/recorder";

interface RecordedToolEnd {
  outcome?: string;
  rawResult?: unknown;
  result?: { content?: string; isError?: boolean };
}

/**
 * Which recorded outcome a handler answers with: `processed` (what entered the conversation,
 * after result middleware such as spilling) when the agent is rebuilt without the original
 * middleware; `raw` (what the handler returned) when the user's own agent, with its middleware,
 * processes it again.
 */
export type RecordedAnswer = "processed" | "raw";

/** Tool handlers that answer each call with the result recorded for its call id, never running the real tool. */
export class RecordedTools {
  private readonly results = new Map<string, RecordedToolEnd>();
  /** Calls the rerun made that the recording has no result for (it took another path). */
  readonly unmatched: string[] = [];

  constructor(events: readonly RecordedEvent[], private readonly answerWith: RecordedAnswer = "raw") {
    for (const event of events) {
      if (event.kind !== "tool_call_end") continue;
      const id = typeof event.attrs.toolCallId === "string" ? event.attrs.toolCallId : undefined;
      if (id) this.results.set(id, (event.payload ?? {}) as RecordedToolEnd);
    }
  }

  /** Tools with the recorded definitions (name, description, schema) answering from the recording. */
  tools(definitions: readonly ToolDefinition[]): Tool[] {
    return definitions.map((definition) =>
      tool({
        name: definition.name,
        description: definition.description,
        inputSchema: definition.inputSchema,
        execute: (_input, context) => this.answer(definition.name, context.toolCall.id),
      }),
    );
  }

  private answer(name: string, id: string): unknown {
    const recorded = this.results.get(id);
    if (!recorded) {
      this.unmatched.push(`${name} (${id})`);
      throw new Error(`replay: no recorded result for ${name} call ${id}`);
    }
    const failed = recorded.outcome !== undefined && recorded.outcome !== "executed";
    if (this.answerWith === "processed" && !failed) {
      if (recorded.result?.isError) throw new Error(String(recorded.result.content ?? "").replace(/^Error: /, ""));
      return recorded.result?.content ?? "";
    }
    if (failed || (recorded.rawResult === undefined && recorded.result?.isError)) {
      // The engine renders a thrown error as "Error: <message>"; throw the recorded message back.
      throw new Error(String(recorded.result?.content ?? "recorded failure").replace(/^Error: /, ""));
    }
    return recorded.rawResult !== undefined ? recorded.rawResult : recorded.result?.content;
  }
}

/**
 * Splits a recorded system prompt into what the agent was configured with and what prompt
 * providers added, around the "Available tools" section the engine composes from the tools.
 */
export function splitSystemPrompt(request: ModelRequest): { base: string; extra: string } {
  const system = request.system ?? "";
  if (!request.tools?.length) return { base: system, extra: "" };
  const section = `## Available tools\n${request.tools.map((t) => `- ${t.name}: ${t.description || "(no description)"}`).join("\n")}`;
  const at = system.indexOf(section);
  if (at < 0) return { base: system, extra: "" };
  const base = system.slice(0, at).replace(/\n\n$/, "");
  const extra = system.slice(at + section.length).replace(/^\n\n/, "");
  return { base, extra };
}
