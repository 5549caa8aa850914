import { CancelledError, ProviderError, toError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import type { ModelProvider, ModelRequest, ProviderResponse } from "../types/provider.js";
import { linkedSignal, sleep, type LinkedSignal } from "../util/abort.js";
import { checkResponse } from "./response-check.js";
import { fire, type EngineServices, type RunSink } from "./services.js";

/** What cancels a model call, and where its text and waiting events stream. */
export interface ProviderCallInput {
  signal?: AbortSignal;
  sink: RunSink;
}

/**
 * One provider's answer to the request: each attempt within the request timeout and cancelled
 * with the run, a retryable failure asked again after a backoff (`RETRY`, waiting events).
 */
export function askProvider(
  services: EngineServices,
  provider: ModelProvider,
  request: ModelRequest,
  input: ProviderCallInput,
): Promise<ProviderResponse> {
  return withRetries(services, input, () => send(services, provider, request, input));
}

async function send(
  services: EngineServices,
  provider: ModelProvider,
  request: ModelRequest,
  input: ProviderCallInput,
): Promise<ProviderResponse> {
  const { config } = services;
  const link = linkedSignal([input.signal], config.requestTimeoutMs, true);
  try {
    const attempt = request.stream
      ? consumeStream(services, provider, request, link.signal, input)
      : provider.complete(request, link.signal);
    const reply = await raceAbort(attempt, link);
    return checkResponse(reply, provider.name);
  } catch (err) {
    if (input.signal?.aborted) throw new CancelledError();
    if (link.timedOut())
      throw new ProviderError(
        "timeout",
        `provider "${provider.name}" did not answer within ${config.requestTimeoutMs} ms`,
        { cause: err },
      );
    if (err instanceof ProviderError) throw err;
    throw new ProviderError("bad_response", `provider "${provider.name}" failed: ${toError(err).message}`, {
      cause: err,
    });
  } finally {
    link.dispose();
  }
}

/** Rejects as soon as the link aborts, even if the provider ignores the signal. */
function raceAbort<T>(work: Promise<T>, link: LinkedSignal): Promise<T> {
  const { signal } = link;
  if (signal.aborted) return Promise.reject(toError(signal.reason));
  return new Promise<T>((resolve, reject) => {
    link.onAbort(() => reject(toError(signal.reason)));
    work.then(
      (v) => {
        link.onAbort(undefined);
        resolve(v);
      },
      (e) => {
        link.onAbort(undefined);
        reject(e);
      },
    );
  });
}

async function consumeStream(
  services: EngineServices,
  provider: ModelProvider,
  request: ModelRequest,
  signal: AbortSignal,
  input: ProviderCallInput,
): Promise<ProviderResponse> {
  const hold = services.middleware.transformsResponses();
  let final: ProviderResponse | undefined;
  for await (const event of provider.stream!(request, signal)) {
    if (event.type === "response") final = event.response;
    else if (!hold && event.type === "text_delta") input.sink.push({ type: "text_delta", text: event.text });
    else if (!hold && event.type === "reasoning_delta") input.sink.push({ type: "reasoning_delta", text: event.text });
  }
  if (!final)
    throw new ProviderError("bad_response", `provider "${provider.name}" ended its stream without a final response`);
  return final;
}

async function withRetries(
  services: EngineServices,
  input: ProviderCallInput,
  attempt: () => Promise<ProviderResponse>,
): Promise<ProviderResponse> {
  const policy = services.config.retry;
  let delay = policy.initialDelayMs;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ProviderError) || !err.retryable || n >= policy.maxAttempts) throw err;
      const wait = Math.min(err.retryAfterMs ?? delay, policy.maxDelayMs);
      await fire(services, HookEvent.RETRY, { target: "model", attempt: n, delayMs: wait, error: err });
      await waitWithProgress(wait, input);
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}

/** Sleeps, telling the stream every second how long it has waited. */
async function waitWithProgress(ms: number, input: ProviderCallInput): Promise<void> {
  let waited = 0;
  input.sink.push({ type: "waiting", on: "retry", seconds: 0 });
  while (waited < ms) {
    const step = Math.min(1000, ms - waited);
    await sleep(step, input.signal);
    waited += step;
    if (waited < ms) input.sink.push({ type: "waiting", on: "retry", seconds: Math.round(waited / 1000) });
  }
}
