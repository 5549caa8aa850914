import { readFileSync } from "node:fs";
import type { PriceCalculation, Provider } from "@pydantic/genai-prices";
import { ConfigError, MissingPackageError } from "../errors.js";
import { importOptional } from "../util/optional-package.js";
import type { Usage } from "../types/content.js";
import { modelPriceProblem, type CallCost, type ModelPrice } from "./call-cost.js";

type GenaiPrices = typeof import("@pydantic/genai-prices");

/**
 * genai-prices and its table (about a megabyte of JavaScript), an optional peer loaded on the
 * first call priced: never by a process that prices nothing, nor by an app that installed core
 * alone (`harnessx` depends on it), whose calls are then unpriced with the command to install it.
 */
let library: Promise<GenaiPrices> | undefined;
const genaiPrices = (): Promise<GenaiPrices> =>
  (library ??= importOptional(
    import.meta.url,
    { feature: "Pricing model calls", packages: ["@pydantic/genai-prices"] },
    () => import("@pydantic/genai-prices"),
  ));

/** What pricing needs besides usage: the agent's own prices, and a newer genai-prices table. */
export interface PricingOptions {
  /** Prices of models by model id, used before any table (a model of your own, or a negotiated rate). */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** A genai-prices data file (its `data.json`, a JSON array of providers) used instead of the table the package ships. */
  priceFile?: string;
}

/** How a (provider, model) pair is priced, found once: later calls price against it alone. */
type Resolution = { provider: Provider; source: "prices" | "genai-prices" } | { reason: string };

/**
 * Prices model calls from their usage with genai-prices: the agent's own `prices` first, then
 * the price file if given, else the table genai-prices ships (no network). Each (provider, model)
 * pair is looked up once; later calls are priced against the one model found.
 */
export class Pricer {
  private readonly own: Provider | undefined;
  private readonly fromFile: Provider[] | undefined;
  private readonly resolved = new Map<string, Resolution>();

  constructor(options: PricingOptions = {}) {
    this.own = options.prices && Object.keys(options.prices).length ? ownProvider(options.prices) : undefined;
    this.fromFile = options.priceFile === undefined ? undefined : readPriceFile(options.priceFile);
  }

  /** What a call with this usage cost, from the provider's name and the model that answered. */
  async price(usage: Usage, model: string, provider: string): Promise<CallCost> {
    let prices: GenaiPrices;
    try {
      prices = await genaiPrices();
    } catch (error) {
      // A cost is what a run reports, not what it needs: without the table the call is unpriced, and says why.
      if (error instanceof MissingPackageError) return { usd: null, reason: error.message };
      throw error;
    }
    const key = `${provider}\u0000${model}`;
    let resolution = this.resolved.get(key);
    if (!resolution) this.resolved.set(key, (resolution = this.resolve(prices, usage, model, provider)));
    if ("reason" in resolution) return { usd: null, reason: resolution.reason };
    try {
      const result = prices.calcPrice(usageOf(usage), model, { provider: resolution.provider });
      if (!result)
        return {
          usd: null,
          reason: `no price for model ${JSON.stringify(model)} (provider ${JSON.stringify(provider)})`,
        };
      return {
        usd: result.total_price,
        inputUsd: result.input_price,
        outputUsd: result.output_price,
        source: resolution.source,
        pricedAs: result.model.id,
      };
    } catch (error) {
      // genai-prices refuses usage it cannot price (cache tokens above the input total, negative counts).
      return { usd: null, reason: `usage cannot be priced: ${(error as Error).message}` };
    }
  }

  private resolve(prices: GenaiPrices, usage: Usage, model: string, provider: string): Resolution {
    const found = (calculation: PriceCalculation | null, source: "prices" | "genai-prices"): Resolution | undefined =>
      calculation ? { provider: { ...calculation.provider, models: [calculation.model] }, source } : undefined;
    const tryPrice = (options: Parameters<GenaiPrices["calcPrice"]>[2]): PriceCalculation | null => {
      try {
        return prices.calcPrice(usageOf(usage), model, options);
      } catch {
        return null;
      }
    };
    const own = this.own && found(tryPrice({ provider: this.own }), "prices");
    if (own) return own;
    if (this.fromFile) {
      const named = this.fromFile.find((p) => p.id === provider);
      for (const candidate of named ? [named, ...this.fromFile.filter((p) => p !== named)] : this.fromFile) {
        const match = found(tryPrice({ provider: candidate }), "genai-prices");
        if (match) return match;
      }
    } else {
      const known = prices.findProvider({ providerId: provider }) !== undefined;
      const match = found(tryPrice(known ? { providerId: provider } : {}), "genai-prices");
      if (match) return match;
    }
    return {
      reason: `no price for model ${JSON.stringify(model)} (provider ${JSON.stringify(provider)})${this.fromFile ? " in the price file" : " in genai-prices"}`,
    };
  }
}

/** Our usage as genai-prices counts it: `input_tokens` is the whole prompt, cache reads and writes included, as in ours. */
function usageOf(usage: Usage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(usage.cacheReadTokens ? { cache_read_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
  };
}

/** The agent's `prices` as a genai-prices provider, so one formula prices every call. */
function ownProvider(prices: Readonly<Record<string, ModelPrice>>): Provider {
  for (const [model, price] of Object.entries(prices)) {
    const problem = modelPriceProblem(price);
    if (problem) throw new ConfigError(`prices[${JSON.stringify(model)}].${problem}`);
  }
  return {
    id: "harnessx-prices",
    name: "AgentConfig.prices",
    api_pattern: ".*",
    models: Object.entries(prices).map(([id, p]) => ({
      id,
      match: { equals: id },
      prices: {
        input_mtok: p.inputPerMTok,
        output_mtok: p.outputPerMTok,
        cache_read_mtok: p.cacheReadPerMTok ?? p.inputPerMTok,
        cache_write_mtok: p.cacheWritePerMTok ?? p.inputPerMTok,
      },
    })),
  };
}

/** Reads a genai-prices data file; a missing or malformed one is a configuration error, raised when the agent is built. */
function readPriceFile(path: string): Provider[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`priceFile ${JSON.stringify(path)} cannot be read as JSON: ${(error as Error).message}`);
  }
  const valid =
    Array.isArray(data) &&
    data.every((p) => p && typeof p === "object" && typeof p.id === "string" && Array.isArray(p.models));
  if (!valid)
    throw new ConfigError(
      `priceFile ${JSON.stringify(path)} is not a genai-prices data file (a JSON array of providers, each with an id and models)`,
    );
  return data as Provider[];
}
