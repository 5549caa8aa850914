/**
 * What one model call cost, in US dollars. `usd` is null, with the reason, when the call could
 * not be priced (a model no price table knows): an unknown price is never counted as free.
 */
export type CallCost =
  | {
      /** Total of the call: input (cache reads and writes at their own rates) plus output. */
      usd: number;
      /** The input part, cache reads and writes included. */
      inputUsd: number;
      /** The output part (reasoning tokens are output tokens). */
      outputUsd: number;
      /** Where the price came from: the agent's own `prices`, or `genai-prices` (its bundled table, or the price file given). */
      source: "prices" | "genai-prices";
      /** The model the price is for, as the table names it (a reply's dated model id maps to its family). */
      pricedAs: string;
    }
  | {
      /** No price: the cost is unknown (never 0). */
      usd: null;
      /** Why the call has no price, e.g. `no price for model "my-model" (provider "acme")`. */
      reason: string;
    };

/** Prices of a model the agent names itself (`AgentConfig.prices`), in US dollars per million tokens. */
export interface ModelPrice {
  /** Per million input tokens that were neither read from nor written to a prompt cache. */
  inputPerMTok: number;
  /** Per million output tokens (reasoning included). */
  outputPerMTok: number;
  /** Per million input tokens read from the prompt cache. Default: `inputPerMTok`. */
  cacheReadPerMTok?: number;
  /** Per million input tokens written to the prompt cache. Default: `inputPerMTok`. */
  cacheWritePerMTok?: number;
}

const PRICE_FIELDS = ["inputPerMTok", "outputPerMTok", "cacheReadPerMTok", "cacheWritePerMTok"] as const;

/**
 * What is wrong with a model's price (`AgentConfig.prices`, or one read back from a recording),
 * as `<field> must be ...`; undefined when every figure is US dollars per million tokens, 0 or more.
 */
export function modelPriceProblem(price: unknown): string | undefined {
  if (typeof price !== "object" || price === null)
    return `must be an object of prices per million tokens; got ${JSON.stringify(price)}`;
  for (const field of PRICE_FIELDS) {
    const value = (price as Record<string, unknown>)[field];
    if (field.startsWith("cache") && value === undefined) continue;
    if (!(typeof value === "number" && Number.isFinite(value) && value >= 0))
      return `${field} must be a number of US dollars per million tokens, 0 or more; got ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** A run's cost: the sum of its priced calls, and how many calls had no price. */
export interface RunCost {
  /** Sum over the priced calls; null when no call was priced. */
  usd: number | null;
  /** Calls without a price (their cost is unknown, not zero): the total is a lower bound when this is not 0. */
  unpricedCalls: number;
}

/** Adds one call's cost to a run's. */
export function addCost(total: RunCost, cost: CallCost): void {
  if (cost.usd === null) total.unpricedCalls++;
  else total.usd = (total.usd ?? 0) + cost.usd;
}
