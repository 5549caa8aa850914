// One extension declares a tool and prompt guidance (contribute) and registers a middleware and a hook (install).
import { Extension, HookEvent, Middleware, contribution, tool, type ExtensionContext, type ToolCall } from "harnessx";

export const search = tool({
  name: "search",
  description: "search looks up the product docs collection.",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  replayPolicy: "safe",
  execute: async ({ query }) => `product_docs: ${String(query)}`,
});

/** Trims the search query before the engine validates and authorizes the call. */
export class NormalizeSearch extends Middleware {
  override async beforeToolExecution(call: ToolCall): Promise<ToolCall> {
    if (call.name !== "search") return call;
    return { ...call, input: { ...call.input, query: String(call.input.query ?? "").trim() } };
  }
}

export class SearchExtension extends Extension {
  readonly name = "search_feature";
  /** Tool calls this extension saw finish, for the caller to inspect. */
  readonly completed: string[] = [];

  override contribute() {
    return contribution(this, { tools: [search], prompts: [{ id: "scope", text: "search covers the product docs." }] });
  }

  override install(ctx: ExtensionContext): void {
    ctx.addMiddleware(new NormalizeSearch());
    ctx.onHook(HookEvent.TOOL_CALL_END, (e) => void this.completed.push(e.data.toolCall.name));
  }
}
