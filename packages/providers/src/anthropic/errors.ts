import { ProviderError, type ProviderErrorKind } from "@harnessx/core";
import {
  captureNumbers,
  toProviderError,
  type ApiErrorView,
  type ErrorRefinement,
  type SdkErrorClasses,
} from "../errors.js";

/** Maps whatever `@anthropic-ai/sdk` threw (its error classes: `sdk`, as loaded) to a typed harnessx error. */
export function anthropicError(
  err: unknown,
  provider: string,
  signal: AbortSignal | undefined,
  sdk: SdkErrorClasses,
): Error {
  // The SDK found no credentials anywhere; it throws a plain Error before any request is made.
  if (
    !(err instanceof sdk.APIError) &&
    err instanceof Error &&
    /could not resolve authentication method/i.test(err.message) &&
    !signal?.aborted
  ) {
    return new ProviderError(
      "auth",
      `${provider}: no credentials: pass { apiKey } or set ANTHROPIC_API_KEY (${err.message})`,
      { cause: err },
    );
  }
  return toProviderError(err, { provider, signal, sdk, refine: refineAnthropicError });
}

/** Error `type`s of the Messages API; the only clue for an `error` event inside a stream. */
const KIND_BY_TYPE: Record<string, ProviderErrorKind> = {
  rate_limit_error: "rate_limit",
  overloaded_error: "server",
  api_error: "server",
  timeout_error: "timeout",
  request_too_large: "context_overflow",
  authentication_error: "auth",
  permission_error: "auth",
  invalid_request_error: "invalid_request",
  not_found_error: "invalid_request",
  billing_error: "auth",
};

/**
 * "prompt is too long: N tokens > M maximum" is a context overflow;
 * "max_tokens: N > M, which is the maximum allowed" and "input length and
 * `max_tokens` exceed context limit: A + B > C" are reply budget errors with
 * the budget that would fit; a 400 saying the model does not support a feature is `unsupported`.
 */
export function refineAnthropicError(error: ApiErrorView): ErrorRefinement {
  const message = error.apiMessage || error.message;
  if (/prompt is too long/i.test(message)) return { kind: "context_overflow" };
  const maxAllowed = captureNumbers(/max_tokens: (\d+) > (\d+), which is the maximum/i, message);
  if (maxAllowed) return { kind: "reply_limit", limit: maxAllowed[1] };
  const sum = captureNumbers(/exceed context limit: (\d+) \+ (\d+) > (\d+)/i, message);
  if (sum) {
    const [input, , window] = sum;
    return window > input ? { kind: "reply_limit", limit: window - input } : { kind: "context_overflow" };
  }
  // A 400 saying the model lacks a feature ("... does not support thinking"), not that the request is malformed: a fallback may have it.
  if (error.status === 400 && /\b(does not support|is not supported)\b/i.test(message)) return { kind: "unsupported" };
  if (error.status === undefined && error.type) return { kind: KIND_BY_TYPE[error.type] };
  return {};
}
