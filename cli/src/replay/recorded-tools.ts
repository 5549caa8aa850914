import {
  parseSystemPrompt,
  tool,
  type ModelRequest,
  type Tool,
  type ToolDefinition,
  type ToolSummary,
} from "@harnessx/core";
import { contribution, defineExtension, type Extension, type PromptFragment } from "@harnessx/core/extension";
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

  constructor(
    events: readonly RecordedEvent[],
    private readonly answerWith: RecordedAnswer = "raw",
  ) {
    for (const event of events) {
      if (event.kind !== "tool_call_end") continue;
      const id = typeof event.attrs.toolCallId === "string" ? event.attrs.toolCallId : undefined;
      if (id) this.results.set(id, (event.payload ?? {}) as RecordedToolEnd);
    }
  }

  /**
   * Tools with the recorded definitions (name, description, schema) answering from the recording,
   * with the settings the run recorded for them (`run.json`'s `tools`: concurrency, permission,
   * replay policy, time limit, attempts), so calls run as they did and an agent module that passes
   * them through shows no configuration difference.
   */
  tools(definitions: readonly ToolDefinition[], settings: readonly ToolSummary[] = []): Tool[] {
    return definitions.map((definition) => {
      const recorded = settings.find((s) => s.name === definition.name);
      return tool({
        name: definition.name,
        description: definition.description,
        inputSchema: definition.inputSchema,
        ...(recorded?.concurrent ? { concurrent: true } : {}),
        ...(recorded?.permission ? { permission: recorded.permission } : {}),
        ...(recorded?.replayPolicy ? { replayPolicy: recorded.replayPolicy } : {}),
        ...(recorded?.timeoutSeconds !== undefined ? { timeoutSeconds: recorded.timeoutSeconds } : {}),
        // Answers come from the recording at once: a retry needs no wait.
        ...(recorded && recorded.attempts > 1 ? { retry: { attempts: recorded.attempts, backoffMs: 0 } } : {}),
        execute: (_input, context) => this.answer(definition.name, context.toolCall.id),
      });
    });
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
 * The parts a recorded system prompt was composed from: the operator's text and, per
 * extension, the prompt fragments it contributed, as extensions that contribute the same
 * fragments in the same order (so the rebuilt agent composes the same text).
 */
export function recordedPrompt(request: ModelRequest): { system: string; extensions: Extension[] } {
  const system = request.system ?? "";
  const parsed = parseSystemPrompt(system, request.tools ?? []);
  if (!parsed) return { system, extensions: [] };
  const byExtension = new Map<string, PromptFragment[]>();
  parsed.fragments.forEach(({ extension, id, tier, text }, order) => {
    const list = byExtension.get(extension) ?? [];
    list.push({ id, tier, text, order });
    byExtension.set(extension, list);
  });
  const extensions = [...byExtension].map(([name, prompts]) =>
    defineExtension({ name, contribute: () => contribution(name, { prompts }) }),
  );
  return { system: parsed.operator, extensions };
}
