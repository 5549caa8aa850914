import { importOptional } from "@harnessx/core/extension";
import type { ClientSettings } from "../connection.js";
import type { SdkErrorClasses } from "../errors.js";

/**
 * What `AnthropicProvider` calls on a client of the `@anthropic-ai/sdk` package (a
 * `new Anthropic(...)` fits): declared here, so that an app without that package still
 * type-checks against harnessx.
 */
export interface AnthropicClient {
  /** The Messages API. */
  readonly messages: {
    /** One Messages request; its reply (or a stream of events) is read as unknown data. */
    create(body: object, options: { signal?: AbortSignal; maxRetries?: number }): PromiseLike<unknown>;
  };
}

/** How thinking appears in a reply: in full (`summarized`) or only its signature (`omitted`). */
export type AnthropicThinkingDisplay = "summarized" | "omitted" | null;

/** How much Claude thinks before it answers, as the Messages API's `thinking` field takes it. */
export type AnthropicThinking =
  | {
      /** A fixed thinking budget. */
      type: "enabled";
      /** Tokens Claude may think with: at least 1,024, below the reply budget. */
      budget_tokens: number;
      /** Default: the model's. */
      display?: AnthropicThinkingDisplay;
    }
  | {
      /** Claude decides when and how much to think. */
      type: "adaptive";
      /** Default: the model's. */
      display?: AnthropicThinkingDisplay;
    }
  | {
      /** Thinking between tool calls only. */
      type: "between_tools";
    }
  | {
      /** No thinking. */
      type: "disabled";
    };

/** The loaded SDK: the client requests go through, and the error classes its calls throw. */
export interface AnthropicSdk {
  client: AnthropicClient;
  errors: SdkErrorClasses;
}

/**
 * Loads `@anthropic-ai/sdk` (an optional peer: only apps that use this provider install it) and
 * makes a client, unless one was given. `MissingPackageError` when the package is not installed.
 */
export async function loadAnthropic(
  given: AnthropicClient | undefined,
  settings: ClientSettings,
): Promise<AnthropicSdk> {
  const sdk = await importOptional(
    import.meta.url,
    { feature: "AnthropicProvider", packages: ["@anthropic-ai/sdk"] },
    () => import("@anthropic-ai/sdk"),
  );
  const client =
    given ??
    new sdk.Anthropic({
      ...(settings.apiKey !== undefined ? { apiKey: settings.apiKey } : {}),
      baseURL: settings.baseURL,
      maxRetries: 0,
      ...(settings.timeoutMs !== undefined ? { timeout: settings.timeoutMs } : {}),
    });
  return { client, errors: sdk };
}
