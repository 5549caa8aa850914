import type { ModelRequest, ScriptStep } from "harnessx";

/** The text of the tool result with this name in the last message, as the model would read it. */
function lastResult(request: ModelRequest, name: string): string {
  const last = request.messages.at(-1);
  const block = last?.content.find((b) => b.type === "tool_result" && b.name === name);
  return block && block.type === "tool_result" ? block.content : "";
}

/**
 * What the embedded scripted model does in the demo: parallel lookups (one slow) beside
 * loading the card-payments skill, the order's shipment from the MCP shipping server,
 * a failing charge next to a huge export (spilled), a SQL question over the spilled
 * table through read_result, then an answer.
 */
export function demoScript(): ScriptStep[] {
  return [
    {
      text: "Let me check the weather and the customer's orders.",
      toolCalls: [
        { name: "get_weather", input: { city: "Lisbon" } },
        { name: "search_orders", input: { customer: "ada@example.com" } },
        { name: "load_skill", input: { name: "card-payments" } },
      ],
      usage: { inputTokens: 412, outputTokens: 38 },
    },
    {
      toolCalls: [{ name: "mcp__shipping__track_order", input: { orderId: "A-1002" } }],
      usage: { inputTokens: 560, outputTokens: 24 },
    },
    {
      toolCalls: [
        { name: "charge_card", input: { customer: "ada@example.com", amount: 42 } },
        { name: "export_sales", input: { quarter: "2026-Q4" } },
      ],
      usage: { inputTokens: 690, outputTokens: 41, cacheReadTokens: 400 },
    },
    (request) => {
      const envelope = JSON.parse(lastResult(request, "export_sales")) as { resultId: string };
      return {
        toolCalls: [
          {
            name: "read_result",
            input: {
              resultId: envelope.resultId,
              op: "query",
              sql: "SELECT product, sum(units) AS units FROM result GROUP BY product ORDER BY units DESC LIMIT 3",
            },
          },
        ],
        usage: { inputTokens: 1180, outputTokens: 52, cacheReadTokens: 680 },
      };
    },
    (request) => {
      const answer = JSON.parse(lastResult(request, "read_result")) as {
        rows: Array<{ product: string; units: number }>;
      };
      const top = answer.rows.map((r) => `${r.product} (${r.units})`).join(", ");
      return {
        text: `Order A-1002 (42.00) is still processing and the card was declined, so nothing was charged. Weather in Lisbon: 14°C, overcast. Best sellers this quarter: ${top}.`,
        usage: { inputTokens: 1320, outputTokens: 61, cacheReadTokens: 1100 },
      };
    },
  ];
}
