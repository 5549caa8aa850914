/**
 * Network failures worth another attempt: the connection broke, timed out or a name did not resolve
 * yet. A refused connection (nothing listens), an unknown host and an unreadable answer are not:
 * retrying them only holds a flush until its deadline, so they fail at once and count as lost.
 */
const RETRYABLE_NETWORK = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
]);

/** Whether a failed request (Node's http error, or fetch's with its `cause`) may succeed if sent again. */
export function isRetryableNetworkError(error: unknown): boolean {
  const code = (e: unknown) => (e && typeof e === "object" && "code" in e ? String(e.code) : "");
  return (
    RETRYABLE_NETWORK.has(code(error)) || RETRYABLE_NETWORK.has(code((error as { cause?: unknown } | null)?.cause))
  );
}

/** `Retry-After` as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Resolves true after `ms`, false as soon as `signal` aborts; never keeps the process alive. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(finished);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    timer.unref();
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
