import { ConfigError, isTraceId } from "@harnessx/core";

/** Below this, a trace id's folded value is sampled at `ratio`: OpenTelemetry's bound, every id at 1. */
function upperBound(ratio: number): number {
  return ratio >= 1 ? 0x1_0000_0000 : ratio <= 0 ? 0 : Math.floor(ratio * 0xffffffff);
}

/** The four 32-bit words of a trace id XORed together, as an unsigned number. */
function folded(traceId: string): number {
  let value = 0;
  for (let i = 0; i < 32; i += 8) value = (value ^ Number.parseInt(traceId.slice(i, i + 8), 16)) >>> 0;
  return value;
}

/**
 * OpenTelemetry's `TraceIdRatioBasedSampler` decision (`@opentelemetry/sdk-trace` 2.x) to the bit, so that
 * a trace is kept or dropped alike by harnessx's exporters and by an SDK sampling at the same ratio.
 * Written out rather than imported: the `/otel` entry loads `@opentelemetry/api` only. `sampling.test.ts`
 * checks it against the SDK's sampler.
 */
export function traceIdRatioSampled(traceId: string, ratio: number): boolean {
  return isTraceId(traceId) && folded(traceId) < upperBound(ratio);
}

/** The `sample` option checked: a fraction from 0 to 1 (default 1, every run), else a `ConfigError` naming `owner`. */
export function sampleRatio(value: unknown, owner: string): number {
  if (value === undefined) return 1;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1) return value;
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  throw new ConfigError(`${owner}: sample must be a number from 0 to 1 (the fraction of runs exported), got ${shown}`);
}
