import { defineExtension, HookEvent, type Extension } from "harnessx";

/**
 * A status line as an extension: it counts the tokens of every model reply (`LLM_RESPONSE`) and
 * adds up their cost (the agent prices each call: genai-prices, or its own `prices`), and
 * registers a status provider saying both: what `agent.status()` shows.
 */
export function statusLine(): Extension {
  let input = 0;
  let output = 0;
  let calls = 0;
  let usd = 0;
  let unpriced = 0;
  return defineExtension({
    name: "status-line",
    install(ctx) {
      ctx.onHook(HookEvent.LLM_RESPONSE, ({ data }) => {
        input += data.usage.inputTokens;
        output += data.usage.outputTokens;
        calls++;
        if (data.cost.usd === null) unpriced++;
        else usd += data.cost.usd;
      });
      ctx.registerStatus(() => {
        const cost =
          unpriced === calls && calls > 0
            ? "cost unknown"
            : `$${usd.toFixed(4)}${unpriced ? ` + ${unpriced} unpriced call(s)` : ""}`;
        return `${calls} model calls · ${input.toLocaleString("en-US")} in + ${output.toLocaleString("en-US")} out tokens · ${cost}`;
      });
    },
  });
}
