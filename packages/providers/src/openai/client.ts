import { importOptional } from "@harnessx/core/extension";
import type { ClientSettings } from "../connection.js";
import type { SdkErrorClasses } from "../errors.js";

/**
 * What `OpenAIProvider` calls on a client of the `openai` package (a `new OpenAI(...)` fits):
 * declared here, so that an app without that package still type-checks against harnessx.
 */
export interface OpenAIClient {
  /** The server's root, e.g. `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** Chat Completions. */
  readonly chat: {
    /** The resource requests go to. */
    readonly completions: OpenAIChatCompletions;
  };
}

/** The Chat Completions resource of an `openai` client. */
export interface OpenAIChatCompletions {
  /** One Chat Completions request; its reply (or a stream of chunks) is read as unknown data. */
  create(body: object, options: { signal?: AbortSignal; maxRetries?: number }): PromiseLike<unknown>;
}

/** The loaded SDK: the client requests go through, and the error classes its calls throw. */
export interface OpenAISdk {
  client: OpenAIClient;
  errors: SdkErrorClasses;
}

/**
 * Loads the `openai` package (an optional peer: only apps that use this provider install it) and
 * makes a client, unless one was given. `MissingPackageError` when the package is not installed.
 */
export async function loadOpenAI(given: OpenAIClient | undefined, settings: ClientSettings): Promise<OpenAISdk> {
  const sdk = await importOptional(
    import.meta.url,
    { feature: "OpenAIProvider", packages: ["openai"] },
    () => import("openai"),
  );
  const client =
    given ??
    new sdk.OpenAI({
      apiKey: settings.apiKey,
      baseURL: settings.baseURL,
      maxRetries: 0,
      ...(settings.timeoutMs !== undefined ? { timeout: settings.timeoutMs } : {}),
    });
  return { client, errors: sdk };
}
