/** What was written to `process.stderr` (by console.warn/error or directly) between start and `stop()`. */
export interface StderrCapture {
  text(): string;
  stop(): void;
}

/** Starts recording `process.stderr` writes; nothing reaches the real stderr until `stop()`. */
export function captureStderr(): StderrCapture {
  const original = process.stderr.write;
  let written = "";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    const callback = rest.find((r): r is () => void => typeof r === "function");
    callback?.();
    return true;
  }) as typeof process.stderr.write;
  return {
    text: () => written,
    stop() {
      process.stderr.write = original;
    },
  };
}
