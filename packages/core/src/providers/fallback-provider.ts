import { ConfigError } from "../errors.js";
import { answerInOrder, type ProviderRoute } from "../engine/fallback.js";
import type { ModelProvider, ModelRequest, ProviderResponse } from "../types/provider.js";

/** A provider of a fallback chain: the provider alone (asked for its `defaultModel`), or with the model id to ask it for. */
export type FallbackEntry =
  | ModelProvider
  | {
      /** The provider to call. */
      provider: ModelProvider;
      /** The model id to ask it for; default: its `defaultModel` (for the primary: the agent's `model`). */
      model?: string;
    };

/** The primary provider first, then each fallback in the order they are tried. */
export type FallbackChain = readonly [FallbackEntry, ...FallbackEntry[]];

/** What `AgentOptions.provider` takes: one provider, or a chain tried in order. */
export type ProviderOption = ModelProvider | FallbackChain;

/**
 * Providers tried in order: when one fails in a way that switches (retryable after its retries,
 * an unsupported feature, a refusal), the next one answers. An agent given `provider: [a, b]`
 * builds one; the engine retries each provider on its own before it moves on, and reports who
 * answered (`LLM_RESPONSE.provider`/`model`) and why it switched (`RECOVERY` reason `fallback`).
 * Called directly, `complete` tries each provider once, with no retries.
 */
export class FallbackProvider implements ModelProvider {
  /** The primary's name: the chain is known by it until a fallback answers. */
  readonly name: string;
  /** The primary's model. */
  readonly defaultModel?: string;
  readonly borrowsRequests: boolean;
  /** The chain as given. */
  readonly entries: FallbackChain;

  constructor(entries: FallbackChain) {
    if (!Array.isArray(entries) || entries.length === 0)
      throw new ConfigError("FallbackProvider needs at least one provider");
    entries.forEach((entry: unknown, i) => {
      if (!isEntry(entry))
        throw new ConfigError(
          `fallback entry ${i + 1} is not a provider (an object with complete(), or { provider, model } with a non-empty model id)`,
        );
    });
    this.entries = entries;
    const primary = entries[0];
    this.name = providerOf(primary).name;
    this.defaultModel = modelOf(primary) ?? providerOf(primary).defaultModel;
    this.borrowsRequests = entries.every((e) => providerOf(e).borrowsRequests === true);
  }

  /**
   * Each provider with the model it is asked for: the primary with `primaryModel` (the agent's
   * `model`, which defaults to the primary's), each fallback with its own model, else its
   * provider's default, else `primaryModel`.
   */
  routes(primaryModel: string): ProviderRoute[] {
    return this.entries.map((entry, i) => ({
      provider: providerOf(entry),
      model: i === 0 ? primaryModel : (modelOf(entry) ?? providerOf(entry).defaultModel ?? primaryModel),
    }));
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ProviderResponse> {
    const routes = this.routes(request.model);
    const { response } = await answerInOrder(routes, (route) =>
      route.provider.complete(route.model === request.model ? request : { ...request, model: route.model }, signal),
    );
    return response;
  }
}

/** The provider an agent option names: itself, or a `FallbackProvider` over a chain. */
export function toModelProvider(option: ProviderOption): ModelProvider {
  return isFallbackChain(option) ? new FallbackProvider(option) : option;
}

/** The routes every model call of an agent goes along: one for a plain provider, the chain's for a `FallbackProvider`. */
export function routesOf(provider: ModelProvider, model: string): ProviderRoute[] {
  return provider instanceof FallbackProvider ? provider.routes(model) : [{ provider, model }];
}

function isFallbackChain(option: ProviderOption): option is FallbackChain {
  return Array.isArray(option);
}

/** `{ provider, model }` rather than a provider (a provider has no `provider` object of its own). */
function namesModel(entry: FallbackEntry): entry is Exclude<FallbackEntry, ModelProvider> {
  return "provider" in entry && typeof entry.provider === "object" && entry.provider !== null;
}

function providerOf(entry: FallbackEntry): ModelProvider {
  return namesModel(entry) ? entry.provider : entry;
}

function modelOf(entry: FallbackEntry): string | undefined {
  return namesModel(entry) ? entry.model : undefined;
}

function isEntry(entry: unknown): entry is FallbackEntry {
  if (typeof entry !== "object" || entry === null) return false;
  if (!namesModel(entry as FallbackEntry)) return typeof (entry as { complete?: unknown }).complete === "function";
  const { provider, model } = entry as { provider: { complete?: unknown }; model?: unknown };
  return (
    typeof provider.complete === "function" && (model === undefined || (typeof model === "string" && model !== ""))
  );
}
