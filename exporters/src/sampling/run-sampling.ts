import { TraceFlags, context, isSpanContextValid, trace } from "@opentelemetry/api";
import { traceIdRatioSampled } from "@harnessx/core/tracing";

/**
 * The sampled flag of the span context active where a run starts: an incoming W3C `traceparent` the
 * application extracted with the OpenTelemetry propagator, or a span of its own. Undefined when no
 * valid one is active (or no context manager is registered, so nothing can be active).
 */
export function activeParentSampled(): boolean | undefined {
  const parent = trace.getSpanContext(context.active());
  if (!parent || !isSpanContextValid(parent)) return undefined;
  return (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
}

/**
 * The one rule of head sampling, shared by every exporter: a parent's sampled flag decides when
 * there is a parent; otherwise the trace id at `ratio`, as OpenTelemetry's `TraceIdRatioBased`
 * does. Undefined when only the trace id can decide and it is not known yet.
 */
export function runSampled(
  traceId: string | undefined,
  ratio: number,
  parentSampled: boolean | undefined,
): boolean | undefined {
  if (parentSampled !== undefined) return parentSampled;
  if (ratio >= 1) return true;
  if (ratio <= 0) return false;
  return traceId === undefined ? undefined : traceIdRatioSampled(traceId, ratio);
}

/** What `RunSampling.admits` reads of a hook context. */
export interface SampledEvent {
  event: string;
  runId: string | undefined;
  span?: { traceId: string } | undefined;
}

/**
 * One exporter's head sampling, when its `sample` option is set: each run is decided once, at its
 * start (a resumed run keeps its first answer), and every event of a run decided out is left unsent. Decisions are kept only
 * while their run is open.
 */
export class RunSampling {
  private readonly decided = new Map<string, boolean>();

  /** `ratio` undefined: the exporter was given no `sample`, so every run goes, as without head sampling. */
  constructor(readonly ratio: number | undefined) {}

  /** Decides the run now if it is not decided yet (see `runSampled`); undefined while that needs a trace id not given. */
  decide(runId: string, traceId: string | undefined): boolean | undefined {
    if (this.ratio === undefined) return true;
    const known = this.decided.get(runId);
    if (known !== undefined) return known;
    const sampled = runSampled(traceId, this.ratio, activeParentSampled());
    if (sampled !== undefined) this.decided.set(runId, sampled);
    return sampled;
  }

  /** False only for a run decided out. */
  keeps(runId: string | undefined): boolean {
    return runId === undefined || this.decided.get(runId) !== false;
  }

  /** Whether an event goes to the backend: decides the run at `agent_start`, forgets it after `agent_end`. */
  admits(hook: SampledEvent): boolean {
    const { runId } = hook;
    if (runId === undefined) return true;
    const sampled = hook.event === "agent_start" ? this.decide(runId, hook.span?.traceId) : this.decided.get(runId);
    if (hook.event === "agent_end") this.decided.delete(runId);
    return sampled !== false;
  }

  /** Forgets every decision (teardown: runs still paused will not go on). */
  clear(): void {
    this.decided.clear();
  }
}
