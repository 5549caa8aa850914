import type { ScriptStep } from "harnessx";

/** What the embedded scripted model does in the demo: parallel lookups, a failing charge, then an answer. */
export function demoScript(): ScriptStep[] {
  return [
    {
      text: "Let me check the weather and the customer's orders.",
      toolCalls: [
        { name: "get_weather", input: { city: "Lisbon" } },
        { name: "search_orders", input: { customer: "ada@example.com" } },
      ],
      usage: { inputTokens: 412, outputTokens: 38 },
    },
    {
      toolCalls: [{ name: "charge_card", input: { customer: "ada@example.com", amount: 42 } }],
      usage: { inputTokens: 690, outputTokens: 21, cacheReadTokens: 400 },
    },
    {
      text: "Order A-1002 (42.00) is still processing and the card was declined, so nothing was charged. Weather in Lisbon: 14°C, overcast.",
      usage: { inputTokens: 760, outputTokens: 44, cacheReadTokens: 680 },
    },
  ];
}
