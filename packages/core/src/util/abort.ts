import { CancelledError } from "../errors.js";

/** Waits `ms`, or rejects with a CancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new CancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A signal that aborts when any input aborts or after `timeoutMs`; `dispose` clears the timer. */
export function linkedSignal(signals: Array<AbortSignal | undefined>, timeoutMs?: number): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let expired = false;
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) controller.abort(s.reason);
    const fn = () => controller.abort(s.reason);
    s.addEventListener("abort", fn, { once: true });
    listeners.push([s, fn]);
  }
  const timer = timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        expired = true;
        controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      }, timeoutMs)
    : undefined;
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose: () => {
      if (timer) clearTimeout(timer);
      for (const [s, fn] of listeners) s.removeEventListener("abort", fn);
    },
  };
}
