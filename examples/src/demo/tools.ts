import { tool, type Tool } from "harnessx";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The demo's tools: one fast, one slow, one that fails, two that run in parallel. */
export function demoTools(): Tool[] {
  return [
    tool({
      name: "get_weather",
      description: "get_weather returns the current weather for a city.",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      concurrent: true,
      replayPolicy: "safe",
      execute: async ({ city }) => ({ city, tempC: 14, sky: "overcast" }),
    }),
    tool({
      name: "search_orders",
      description: "search_orders finds a customer's recent orders (slow: queries the order database).",
      inputSchema: { type: "object", properties: { customer: { type: "string" } }, required: ["customer"] },
      concurrent: true,
      replayPolicy: "safe",
      timeoutSeconds: 5,
      execute: async ({ customer }) => {
        await sleep(300);
        return [
          { id: "A-1001", customer, total: 129.5, status: "shipped" },
          { id: "A-1002", customer, total: 42.0, status: "processing" },
        ];
      },
    }),
    tool({
      name: "charge_card",
      description: "charge_card charges the customer's card on file.",
      inputSchema: {
        type: "object",
        properties: { customer: { type: "string" }, amount: { type: "number" } },
        required: ["customer", "amount"],
      },
      replayPolicy: "never",
      execute: async ({ amount }) => {
        throw new Error(`card declined for amount ${String(amount)} (insufficient funds)`);
      },
    }),
  ];
}
