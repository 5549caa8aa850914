import { defineExtension, HookEvent, type Extension } from "harnessx";

/** Prices per million tokens, for the cost shown. */
export interface TokenPrices {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * A status line as an extension: it counts the tokens of every model reply (`LLM_RESPONSE`)
 * and registers a status provider saying them and their cost: what `agent.status()` shows.
 */
export function statusLine(prices: TokenPrices): Extension {
  let input = 0;
  let output = 0;
  let calls = 0;
  return defineExtension({
    name: "status-line",
    install(ctx) {
      ctx.onHook(HookEvent.LLM_RESPONSE, ({ data }) => {
        input += data.usage.inputTokens;
        output += data.usage.outputTokens;
        calls++;
      });
      ctx.registerStatus(() => {
        const cost = (input * prices.inputPerMillion + output * prices.outputPerMillion) / 1_000_000;
        return `${calls} model calls · ${input.toLocaleString("en-US")} in + ${output.toLocaleString("en-US")} out tokens · $${cost.toFixed(4)}`;
      });
    },
  });
}
