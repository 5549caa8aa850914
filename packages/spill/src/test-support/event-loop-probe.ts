/** What happened on the agent's thread while a call ran. */
export interface Probe<T> {
  value: T;
  elapsedMs: number;
  /** Ticks of a 10 ms interval timer: it keeps firing unless the event loop is blocked. */
  ticks: number;
  /** Longest time the event loop went without a tick (the call's end counts as one). */
  maxGapMs: number;
  /** Highest resident set size of this process seen at a tick, minus the size at the start. */
  rssGrowthMb: number;
}

/**
 * Runs `call` with a 10 ms timer on this thread, to show the event loop stays free and memory flat.
 * With `deadlineMs`, fails as soon as that much time has passed without an answer, so a hang fails
 * the test at its bound instead of at the test runner's timeout.
 */
export async function probe<T>(call: () => Promise<T>, deadlineMs?: number): Promise<Probe<T>> {
  const start = performance.now();
  const rssStart = process.memoryUsage.rss();
  let last = start;
  let maxGapMs = 0;
  let ticks = 0;
  let rssPeak = rssStart;
  const sample = () => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  };
  const timer = setInterval(() => {
    ticks++;
    sample();
  }, 10);
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    if (deadlineMs !== undefined)
      deadline = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const value = await Promise.race([call(), late]);
    sample();
    return {
      value,
      elapsedMs: Math.round(performance.now() - start),
      ticks,
      maxGapMs: Math.round(maxGapMs),
      rssGrowthMb: Math.round((rssPeak - rssStart) / 2 ** 20),
    };
  } finally {
    clearInterval(timer);
    clearTimeout(deadline);
  }
}
