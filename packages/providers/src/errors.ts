import {
  CancelledError,
  HarnessError,
  ProviderError,
  providerErrorKindForStatus,
  type ProviderErrorKind,
} from "@harnessx/core";

/** The SDK error classes both official clients define (same names, same meaning). */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/** What a vendor-specific reading of an API error adds to the status-based kind. */
export interface ErrorRefinement {
  kind?: ProviderErrorKind;
  /** For `reply_limit`: the largest reply budget the server accepts. */
  limit?: number;
  /** What the user can do about it, appended to the message. */
  hint?: string;
}

/** The fields of an SDK `APIError` the mapping reads. */
export interface ApiErrorView {
  status?: number;
  headers?: Headers;
  message: string;
  /** The server's own message when the SDK extracted it (Anthropic SDK 1.x). */
  apiMessage?: string | null;
  /** Vendor error code (`context_length_exceeded`) or type (`overloaded_error`). */
  code?: string | null;
  type?: string | null;
}

export interface ErrorMappingContext {
  provider: string;
  signal?: AbortSignal;
  sdk: SdkErrorClasses;
  /** Reads vendor specifics: context overflow, reply limit, in-stream error types. */
  refine: (error: ApiErrorView) => ErrorRefinement;
}

/**
 * Turns anything an SDK call threw into a typed harnessx error: a `ProviderError`
 * whose kind tells the engine whether to retry, condense or give up, or a
 * `CancelledError` when the caller's signal aborted the request.
 */
export function toProviderError(err: unknown, ctx: ErrorMappingContext): Error {
  if (ctx.signal?.aborted) return abortedError(ctx.signal, ctx.provider);
  if (err instanceof HarnessError) return err;
  const { sdk, provider } = ctx;
  if (err instanceof sdk.APIUserAbortError) return new CancelledError(`${provider}: the request was aborted`);
  if (err instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError("timeout", `${provider}: the request timed out (${err.message})`, { cause: err });
  }
  if (err instanceof sdk.APIConnectionError) {
    const reason = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return new ProviderError("connection", `${provider}: could not reach the server (${err.message}${reason})`, {
      cause: err,
    });
  }
  if (err instanceof sdk.APIError) return fromApiError(err as Error & ApiErrorView, ctx);
  if (err instanceof SyntaxError) {
    return new ProviderError("bad_response", `${provider}: the server's reply is not valid JSON (${err.message})`, {
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError("bad_response", `${provider}: the request failed: ${message}`, { cause: err });
}

function fromApiError(err: Error & ApiErrorView, ctx: ErrorMappingContext): ProviderError {
  const refined = ctx.refine(err);
  // An error event inside a 200 stream has no status: the vendor's type decides, else treat as a server fault.
  const kind = refined.kind ?? (err.status === undefined ? "server" : providerErrorKindForStatus(err.status));
  const retryAfter = retryAfterMs(err.headers);
  // SDK messages start with the status ("429 ..."), already given above.
  const detail = err.apiMessage || err.message.replace(/^\d{3} /, "");
  const parts = [
    `${ctx.provider}: ${KIND_TEXT[kind]}`,
    err.status !== undefined ? ` (HTTP ${err.status})` : "",
    `: ${detail}`,
  ];
  if (retryAfter !== undefined) parts.push(`; the server asks to retry after ${retryAfter} ms`);
  if (refined.limit !== undefined) parts.push(`; the largest accepted reply budget is ${refined.limit} tokens`);
  const hint = refined.hint ?? (err.status === 404 ? "check the model name and the baseURL" : undefined);
  if (hint) parts.push(` (${hint})`);
  return new ProviderError(kind, parts.join(""), {
    status: err.status,
    retryAfterMs: retryAfter,
    limit: refined.limit,
    cause: err,
  });
}

const KIND_TEXT: Record<ProviderErrorKind, string> = {
  rate_limit: "rate limited",
  server: "server error",
  timeout: "request timed out",
  connection: "connection failed",
  context_overflow: "the conversation is longer than the model's context window",
  reply_limit: "the reply budget (max tokens) is larger than the model allows",
  invalid_request: "the request was refused",
  auth: "authentication failed (check the API key)",
  bad_response: "unusable reply",
  script_exhausted: "script exhausted",
  unsupported: "the model does not support a feature the request uses",
  refusal: "the model refused to answer",
};

/**
 * The server's retry hint in milliseconds: `retry-after-ms`, else `retry-after`
 * as seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(Number(ms));
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The error to raise when the caller's signal aborted: a timeout if the signal says so, else a cancellation. */
export function abortedError(signal: AbortSignal, provider: string): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "TimeoutError") {
    return new ProviderError("timeout", `${provider}: the request was aborted by its timeout signal`, {
      cause: reason,
    });
  }
  return new CancelledError(`${provider}: the request was cancelled`);
}

/** A reply that parsed but does not have the shape of the vendor's API. */
export function badResponse(provider: string, why: string): ProviderError {
  return new ProviderError("bad_response", `${provider}: the server's reply is unusable: ${why}`);
}

/** The numbers captured by `pattern` in `text`, or undefined when it does not match. */
export function captureNumbers(pattern: RegExp, text: string): number[] | undefined {
  const match = pattern.exec(text);
  return match ? match.slice(1).map(Number) : undefined;
}
