import { defineExtension, type CompactRequest, type Extension } from "harnessx";

/**
 * Custom compaction as an extension: a `beforeCompact` middleware that replaces the dropped
 * history with a ledger of the tool calls in it (name, input, whether it failed), so the agent
 * keeps what it did without the outputs. No model call: cheap and deterministic.
 */
export function toolLedgerCompaction(): Extension {
  return defineExtension({
    name: "tool-ledger",
    install(ctx) {
      ctx.addMiddleware({
        name: "ToolLedger",
        async beforeCompact({ dropping }: CompactRequest) {
          const failed = new Set(
            dropping.flatMap((m) =>
              m.content.flatMap((b) => (b.type === "tool_result" && b.isError ? [b.toolCallId] : [])),
            ),
          );
          const calls = dropping.flatMap((m) =>
            m.content.flatMap((b) =>
              b.type === "tool_call"
                ? [`- ${b.name} ${JSON.stringify(b.input)}${failed.has(b.id) ? " (failed)" : ""}`]
                : [],
            ),
          );
          return calls.length
            ? { summary: `Tool calls made so far (outputs dropped):\n${calls.join("\n")}` }
            : undefined;
        },
      });
    },
  });
}
