import { isTraceId } from "./span-context.js";

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
 * Whether a trace is kept at `ratio` (0 to 1): the decision of OpenTelemetry's
 * `TraceIdRatioBasedSampler` (`@opentelemetry/sdk-trace` 2.x) to the bit, so every part of harnessx
 * that samples by trace id (the exporters' head sampling, the recorder's retention) keeps the same
 * runs as an SDK sampling at the same ratio. Here rather than imported, as core loads no
 * OpenTelemetry; `exporters/src/sampling/trace-id-ratio.test.ts` checks it against the SDK's sampler.
 */
export function traceIdRatioSampled(traceId: string, ratio: number): boolean {
  return isTraceId(traceId) && folded(traceId) < upperBound(ratio);
}
