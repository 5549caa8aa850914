/**
 * The sampling decision of OpenTelemetry's `TraceIdRatioBasedSampler` (JS SDK), so that a run
 * kept by `retain.sample` is the run an exporter sampling at the same ratio keeps: the trace id's
 * eight-hex-digit words XORed together, compared with `floor(ratio * 0xffffffff)`. A ratio of 1
 * keeps every trace (the SDK would drop the one id in 2^32 whose words XOR to 0xffffffff).
 *
 * The exporters make the same decision for export sampling; this copy exists only because a
 * built-in may not import another (see docs/architecture.md) and should move to core's API.
 */
export function traceIdRatioSampled(traceId: string, ratio: number): boolean {
  if (ratio >= 1) return true;
  if (!(ratio > 0) || !/^[0-9a-f]{32}$/i.test(traceId) || /^0+$/.test(traceId)) return false;
  let accumulation = 0;
  for (let i = 0; i < traceId.length; i += 8) accumulation = (accumulation ^ Number.parseInt(traceId.slice(i, i + 8), 16)) >>> 0;
  return accumulation < Math.floor(ratio * 0xffffffff);
}
