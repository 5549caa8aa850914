import { getEventListeners } from "node:events";
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

export interface LinkedSignal {
  signal: AbortSignal;
  timedOut: () => boolean;
  /**
   * Sets the one callback run right after the signal aborts (after its own listeners): cheaper
   * than an abort listener, which costs an EventTarget registration per model call.
   */
  onAbort: (fn: (() => void) | undefined) => void;
  dispose: () => void;
}

/**
 * A controller left clean by the call before: never aborted, no listener on its signal. Making an
 * AbortController costs microseconds, a fair share of an engine iteration; one no user of the
 * signal can tell from a new one is handed to the next call instead.
 */
let spare: AbortController | undefined;

/**
 * A signal that aborts when any input aborts or after `timeoutMs`; `dispose` clears the timer.
 * `reuse` (model calls) may hand out a controller a finished call left clean, and takes it back.
 */
export function linkedSignal(signals: Array<AbortSignal | undefined>, timeoutMs?: number, reuse = false): LinkedSignal {
  const controller = (reuse && spare) || new AbortController();
  if (reuse) spare = undefined;
  let expired = false;
  let after: (() => void) | undefined;
  const abort = (reason: unknown) => {
    controller.abort(reason);
    after?.();
  };
  const listeners: Array<[AbortSignal, () => void]> = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) controller.abort(s.reason);
    const fn = () => abort(s.reason);
    s.addEventListener("abort", fn, { once: true });
    listeners.push([s, fn]);
  }
  const timer =
    timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          expired = true;
          abort(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => expired,
    onAbort: (fn) => {
      after = fn;
    },
    dispose: () => {
      if (timer) clearTimeout(timer);
      for (const [s, fn] of listeners) s.removeEventListener("abort", fn);
      after = undefined;
      if (reuse && !controller.signal.aborted && getEventListeners(controller.signal, "abort").length === 0)
        spare = controller;
    },
  };
}
