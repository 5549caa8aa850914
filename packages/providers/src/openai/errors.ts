import {
  captureNumbers,
  toProviderError,
  type ApiErrorView,
  type ErrorRefinement,
  type SdkErrorClasses,
} from "../errors.js";

/** Maps whatever the `openai` SDK threw (its error classes: `sdk`, as loaded) to a typed harnessx error. */
export function openAIError(
  err: unknown,
  provider: string,
  signal: AbortSignal | undefined,
  sdk: SdkErrorClasses,
): Error {
  return toProviderError(err, { provider, signal, sdk, refine: refineOpenAIError });
}

/**
 * Context and budget errors of OpenAI and the common compatible servers:
 * OpenAI `context_length_exceeded` and "supports at most N completion tokens",
 * llama.cpp `exceed_context_size_error`, vLLM "maximum context length is N
 * tokens ... (A in the messages, B in the completion)".
 */
export function refineOpenAIError(error: ApiErrorView): ErrorRefinement {
  const message = error.message;
  const atMost = captureNumbers(/supports at most (\d+) completion tokens/i, message);
  if (atMost) return { kind: "reply_limit", limit: atMost[0] };
  const vllm = captureNumbers(
    /maximum context length is (\d+) tokens.*?\((\d+) in the messages, (\d+) in the completion\)/is,
    message,
  );
  if (vllm) {
    const [window, prompt] = vllm;
    return window > prompt ? { kind: "reply_limit", limit: window - prompt } : { kind: "context_overflow" };
  }
  if (
    error.code === "context_length_exceeded" ||
    error.type === "exceed_context_size_error" ||
    /maximum context length|context length|context window|exceeds the available context size/i.test(message)
  ) {
    return { kind: "context_overflow" };
  }
  // OpenAI's own codes for a parameter or value this model does not take (e.g. temperature on a reasoning model): a fallback may.
  if (error.code === "unsupported_parameter" || error.code === "unsupported_value") return { kind: "unsupported" };
  if (error.status === 404)
    return { hint: "check the model name, and that baseURL ends in /v1 for a compatible server" };
  if (error.status !== undefined) return {};
  // An error object inside a stream: only its code or type says what happened.
  const tag = `${error.code ?? ""} ${error.type ?? ""}`;
  if (/rate_limit|rate limit|tokens_exceeded/i.test(tag)) return { kind: "rate_limit" };
  if (/invalid_request/i.test(tag)) return { kind: "invalid_request" };
  return {};
}
