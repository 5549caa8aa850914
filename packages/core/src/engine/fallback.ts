import { ProviderError } from "../errors.js";
import type { ModelProvider, ProviderResponse } from "../types/provider.js";

/** One provider of a fallback chain with the model id it is asked for. */
export interface ProviderRoute {
  /** The provider called. */
  readonly provider: ModelProvider;
  /** The model id its requests name. */
  readonly model: string;
}

/** One failure of a model call that went to the next provider (or, for the last one, failed the call). */
export interface FallbackFailure {
  /** The provider's name. */
  provider: string;
  /** The model it was asked for. */
  model: string;
  /** Why it did not answer: its error, or a `ProviderError` of kind `refusal` for a refused reply. */
  error: ProviderError;
}

/**
 * The one rule of which failures go to the next provider: a retryable one (429, 5xx, 529
 * overloaded, timeout, connection) once the engine's retries are spent, a feature the model
 * does not support, and a refusal. Everything else stays with the provider that failed: an auth
 * error is a setup mistake a switch would hide (and pay for on every call); a context overflow
 * or reply-limit refusal has its own recovery on the same model (condense, a smaller budget); an
 * invalid request or unusable reply is a bug the next provider would only repeat or mask.
 */
export function switchesProvider(error: unknown): boolean {
  return (
    error instanceof ProviderError && (error.retryable || error.kind === "unsupported" || error.kind === "refusal")
  );
}

/**
 * No provider of a fallback chain answered: each failed in turn, the last one with any error (a
 * failure that does not switch ends the chain there). `failures` says how each one failed, in
 * order; the kind, status and retry hint are the last failure's.
 */
export class FallbackError extends ProviderError {
  /** Each provider's failure, the primary first. */
  readonly failures: readonly FallbackFailure[];
  constructor(failures: readonly FallbackFailure[]) {
    const last = failures[failures.length - 1]!.error;
    super(last.kind, `no provider answered: ${describeFailures(failures)}`, {
      status: last.status,
      retryAfterMs: last.retryAfterMs,
      limit: last.limit,
      cause: last,
    });
    this.failures = failures;
  }
}

/** What answering along a chain reports besides the reply. */
export interface FallbackReporting {
  /** A reply the chain passed over (a refusal): its tokens were spent all the same. */
  onDiscarded?(reply: ProviderResponse, route: ProviderRoute): Promise<void> | void;
  /** A provider after the first answered: which ones failed before it, and how. */
  onFallback?(detail: string, failures: readonly FallbackFailure[], answered: ProviderRoute): Promise<void> | void;
}

/**
 * Asks each route in turn until one answers. A failure that {@link switchesProvider} goes on to
 * the next route; any other failure ends the chain. An error of the first route that does not
 * switch is thrown as it is (so a single route behaves like a plain provider); once a route has
 * failed over, the chain's end throws a `FallbackError` naming every failure.
 */
export async function answerInOrder(
  routes: readonly ProviderRoute[],
  attempt: (route: ProviderRoute) => Promise<ProviderResponse>,
  reporting: FallbackReporting = {},
): Promise<{ response: ProviderResponse; route: ProviderRoute }> {
  const failures: FallbackFailure[] = [];
  for (const [index, route] of routes.entries()) {
    const isLast = index === routes.length - 1;
    try {
      const response = await attempt(route);
      if (response.stopReason === "refusal" && !isLast) {
        await reporting.onDiscarded?.(response, route);
        failures.push({
          provider: route.provider.name,
          model: route.model,
          error: new ProviderError(
            "refusal",
            `${route.provider.name}: the model refused to answer (stop reason refusal)`,
          ),
        });
        continue;
      }
      if (failures.length)
        await reporting.onFallback?.(
          `${describeFailures(failures)}; ${route.provider.name} (${route.model}) answered`,
          failures,
          route,
        );
      return { response, route };
    } catch (err) {
      if (!(err instanceof ProviderError) || routes.length === 1 || (!failures.length && !switchesProvider(err)))
        throw err;
      failures.push({ provider: route.provider.name, model: route.model, error: err });
      if (isLast || !switchesProvider(err)) throw new FallbackError(failures);
    }
  }
  // Only an empty chain gets here; FallbackProvider refuses to build one.
  throw new ProviderError("invalid_request", "no provider to ask: the fallback chain is empty");
}

/** "anthropic (claude-x) failed: <its message>; openai (gpt-y) failed: ..." */
function describeFailures(failures: readonly FallbackFailure[]): string {
  return failures.map((f) => `${f.provider} (${f.model}) failed: ${f.error.message}`).join("; ");
}
