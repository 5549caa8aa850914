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

/** Runs `call` with a 10 ms timer on this thread, to show the event loop stays free and memory flat. */
export async function probe<T>(call: () => Promise<T>): Promise<Probe<T>> {
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
  try {
    const value = await call();
    sample();
    return { value, elapsedMs: Math.round(performance.now() - start), ticks, maxGapMs: Math.round(maxGapMs), rssGrowthMb: Math.round((rssPeak - rssStart) / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}
