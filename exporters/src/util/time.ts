/** Milliseconds since the epoch with sub-millisecond precision. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Waits for `work` at most `ms`. Resolves true when it settled (either way) in
 * time, false on time-out; never rejects and never keeps the process alive.
 */
export function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, ms));
    timer.unref?.();
    work.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(true);
      },
    );
  });
}
