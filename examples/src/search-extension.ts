// The DESIGN.md example: one extension installs a tool, a middleware, a hook and prompt context together.
import { Extension, HookEvent, Middleware, tool, type ExtensionContext, type ToolCall } from "harnessx";

export const search = tool({
  name: "search",
  description: "search looks up the product docs collection.",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
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

  override install(ctx: ExtensionContext): void {
    ctx.registerTool(search, { replayPolicy: "safe" });
    ctx.addMiddleware(new NormalizeSearch());
    ctx.onHook(HookEvent.TOOL_CALL_END, (e) => void this.completed.push(e.data.toolCall.name));
    ctx.registerPromptProvider(() => "search covers the product docs.");
  }
}
