import { ConfigError } from "../errors.js";
import { toModelProvider, type ProviderOption } from "../providers/fallback-provider.js";
import { deepFreeze } from "../util/deep-freeze.js";
import type { ModelPrice } from "../cost/call-cost.js";
import type { PricingOptions } from "../cost/pricer.js";

/** Retry of failed model calls: only retryable provider errors (429, 5xx, timeouts, dropped connections), with doubling backoff. */
export interface ModelRetryOptions {
  /** Total attempts per model call, the first included. Default 4. */
  maxAttempts: number;
  /** First backoff when the server gives no Retry-After. Default 500 ms. */
  initialDelayMs: number;
  /** Cap on one wait, Retry-After included. Default 30 s. */
  maxDelayMs: number;
}

/** Resolved settings of an agent (every default filled in). */
export interface AgentConfig {
  /** Name used in traces (`invoke_agent {name}`). Default `"agent"`. */
  name: string;
  /** Model id sent with each request. Default: the provider's `defaultModel`, else `"default"`. */
  model: string;
  /** The operator's system prompt; tool and extension sections are appended after it. Default `""`. */
  system: string;
  /** Model calls with tools per run before a final answer is asked for. Default 50. */
  maxIterations: number;
  /** Reply budget per model call. Default 4096. */
  maxTokens: number;
  /** Largest budget a cut tool call may be retried with. Default 32768. */
  maxReplyTokens: number;
  /** Sampling temperature sent with each request; undefined leaves it to the provider's default. */
  temperature: number | undefined;
  /** Tool results longer than this are cut for the model (hooks and middleware see all). Default 100,000. */
  maxResultChars: number;
  /** Condense the history when its estimate exceeds `contextBudgetTokens`. Default true. */
  condense: boolean;
  /** Default 150,000 estimated tokens. */
  contextBudgetTokens: number;
  /** Retry of failed model calls; each field has its own default. */
  retry: ModelRetryOptions;
  /** Time limit of one model call. Default 120 s. */
  requestTimeoutMs: number;
  /** Stop a tool-call pattern repeated `threshold` times (default 4); false to disable. */
  repetition:
    | {
        /** Repeats in a row of the same calls (names and inputs, a pattern of up to 4 calls) at which the model is told to stop calling tools. */
        threshold: number;
      }
    | false;
  /** Offer the `write_todos` tool. Default false. */
  todos: boolean;
  /** Largest text of one extension prompt fragment, in characters. Default 4000. */
  maxPromptFragmentChars: number;
  /** Prices of models by id (US dollars per million tokens), used before genai-prices' table. Default none. */
  prices: Readonly<Record<string, ModelPrice>>;
  /** A genai-prices data file (`data.json`) to price calls with instead of the table the package ships. Default none. */
  priceFile: string | undefined;
}

/** The fields of each group of `AgentOptions`, the one list both directions use. */
const GROUPS = {
  limits: ["maxIterations", "maxTokens", "maxReplyTokens", "maxResultChars", "requestTimeoutMs", "repetition"],
  context: ["condense", "contextBudgetTokens", "maxPromptFragmentChars"],
  pricing: ["prices", "priceFile"],
} as const;

/** How far a run and each model call may go (`AgentOptions.limits`); each field has its default. */
export type LimitOptions = Partial<Pick<AgentConfig, (typeof GROUPS.limits)[number]>>;

/** How the history is kept within the model's context (`AgentOptions.context`); each field has its default. */
export type ContextOptions = Partial<Pick<AgentConfig, (typeof GROUPS.context)[number]>>;

/**
 * The settings part of `AgentOptions`: what the agent is, at the top; its limits, its context
 * and its pricing in groups of their own. `Agent.config` is the same, resolved and flat.
 */
export interface ConfigOptions
  extends Partial<Pick<AgentConfig, "name" | "model" | "system" | "temperature" | "todos">> {
  /**
   * The model backend every call of this agent goes to: one provider, or a fallback chain
   * (`[primary, fallback, ...]`, each a provider or `{ provider, model }`) whose next provider
   * answers when one fails in a way that switches (see `FallbackProvider`). Required.
   */
  provider: ProviderOption;
  /** Overrides of the retry settings; fields left out keep their defaults. */
  retry?: Partial<ModelRetryOptions>;
  /** How far a run and each model call may go: iterations, reply tokens, result size, time, repetition. */
  limits?: LimitOptions;
  /** How the history is kept within the model's context: condensing, its budget, prompt fragments. */
  context?: ContextOptions;
  /** The agent's own model prices and a newer price table (see `PricingOptions`). */
  pricing?: PricingOptions;
}

/** Fills in every default and checks ranges; the result is deeply frozen. */
export function resolveConfig(o: ConfigOptions): AgentConfig {
  const positive = (name: string, v: number | undefined, fallback: number) => {
    if (v === undefined) return fallback;
    if (typeof v !== "number" || !(v > 0))
      throw new ConfigError(`${name} must be a positive number, got ${JSON.stringify(v)}`);
    return v;
  };
  // A field set where it was before the groups (or in plain JavaScript) would be silently ignored.
  const flat: Readonly<Record<string, unknown>> = { ...o };
  for (const [group, fields] of Object.entries(GROUPS))
    for (const field of fields)
      if (flat[field] !== undefined)
        throw new ConfigError(`${field} is an option of ${group} now: { ${group}: { ${field} } }`);
  const limits = o.limits ?? {};
  const context = o.context ?? {};
  return deepFreeze({
    name: o.name ?? "agent",
    model: o.model ?? toModelProvider(o.provider).defaultModel ?? "default",
    system: o.system ?? "",
    maxIterations: positive("limits.maxIterations", limits.maxIterations, 50),
    maxTokens: positive("limits.maxTokens", limits.maxTokens, 4096),
    maxReplyTokens: positive("limits.maxReplyTokens", limits.maxReplyTokens, 32_768),
    temperature: o.temperature,
    maxResultChars: positive("limits.maxResultChars", limits.maxResultChars, 100_000),
    condense: context.condense ?? true,
    contextBudgetTokens: positive("context.contextBudgetTokens", context.contextBudgetTokens, 150_000),
    retry: { maxAttempts: 4, initialDelayMs: 500, maxDelayMs: 30_000, ...o.retry },
    requestTimeoutMs: positive("limits.requestTimeoutMs", limits.requestTimeoutMs, 120_000),
    repetition: limits.repetition === undefined ? { threshold: 4 } : limits.repetition && { ...limits.repetition },
    todos: o.todos ?? false,
    maxPromptFragmentChars: positive("context.maxPromptFragmentChars", context.maxPromptFragmentChars, 4000),
    prices: { ...o.pricing?.prices },
    priceFile: o.pricing?.priceFile,
  });
}

/**
 * Settings as `Agent.config` holds them (flat, as a recording's `run.json` has them) in the shape
 * `AgentOptions` takes: to build an agent configured like another one (a replay).
 */
export function configOptions(
  config: Partial<Omit<AgentConfig, "retry">> & { retry?: Partial<ModelRetryOptions> },
): Omit<ConfigOptions, "provider"> {
  const options: Record<string, unknown> = {};
  const grouped: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    const group = Object.entries(GROUPS).find(([, fields]) => (fields as readonly string[]).includes(key))?.[0];
    if (group) (grouped[group] ??= {})[key] = value;
    else options[key] = value;
  }
  return { ...options, ...grouped } as Omit<ConfigOptions, "provider">;
}
