import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context,
  trace,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import {
  SPAN_KIND,
  isSpanId,
  isTraceId,
  newSpanId,
  type SpanContext,
  type SpanIdSource,
  type SpanIds,
  type SpanStart,
} from "@harnessx/core/tracing";
import type { RunSampling } from "../sampling/run-sampling.js";

interface Started {
  span: Span;
  runId: string;
  /** The name it was started with, so adoption renames it only when the request changed the model. */
  name: string;
}

interface Live {
  span: Span;
  /** The context that parents this span's children, made once on the first child. */
  children?: Context;
}

/**
 * Core's span id source: each span core opens is started here, at once, as a live OpenTelemetry
 * span, and its ids become core's ids, so the recording and the backend name the same spans.
 * The mapping later adopts the live span when the span's first event arrives.
 */
export class LiveSpans implements SpanIdSource {
  /** Started and not yet adopted by the mapping. */
  private readonly waiting = new Map<string, Started>();
  /** Every span started here and not yet ended, for the parent lookups of its children. */
  private readonly live = new Map<string, Live>();
  /** Spans standing in for a run span core's ids name (`continueAs`), by span. */
  private readonly aliases = new Map<Span, string>();

  /** `spanName`: a span's name as exported (through the agent's redaction policy). */
  constructor(
    private readonly tracer: Tracer,
    private readonly sampling: RunSampling,
    private readonly spanName: (name: string) => string = (name) => name,
  ) {}

  open(start: SpanStart): SpanIds | undefined {
    if (
      start.role === "agent"
        ? this.sampling.decide(start.runId, undefined) === false
        : !this.sampling.keeps(start.runId)
    )
      return this.unsampled(start);
    const outer = start.parent ? this.contextOf(start.parent) : context.active();
    const kind = SPAN_KIND[start.role] === "CLIENT" ? SpanKind.CLIENT : SpanKind.INTERNAL;
    const span = this.tracer.startSpan(this.spanName(start.name), { kind, startTime: start.time }, outer);
    const ids = span.spanContext();
    // With no SDK the API hands back its parent's (or an invalid) context: core then makes the ids.
    // Core's own id checks (the ones it applies to this answer), so a span kept here is one core takes.
    if (
      !isTraceId(ids.traceId) ||
      !isSpanId(ids.spanId) ||
      ids.spanId === start.parent?.spanId ||
      this.live.has(ids.spanId)
    )
      return undefined;
    const outerSpanId = start.parent ? undefined : trace.getSpanContext(outer)?.spanId;
    const given = outerSpanId
      ? { traceId: ids.traceId, spanId: ids.spanId, parentSpanId: outerSpanId }
      : { traceId: ids.traceId, spanId: ids.spanId };
    // Sampled out by its trace id, known only now: the span is never ended, so no processor exports
    // it, and core takes its ids, so every exporter of the agent decides on the same trace id.
    if (start.role === "agent" && this.sampling.decide(start.runId, ids.traceId) === false) return given;
    this.waiting.set(ids.spanId, { span, runId: start.runId, name: start.name });
    this.live.set(ids.spanId, { span });
    return given;
  }

  /**
   * Ids for a span of a run sampled out, with nothing started: a run under an incoming context
   * stays in its trace (the recording keeps the link); anything else is left for core to make.
   */
  private unsampled(start: SpanStart): SpanIds | undefined {
    if (start.role !== "agent" || start.parent) return undefined;
    const outer = trace.getSpanContext(context.active());
    return outer && isTraceId(outer.traceId) && isSpanId(outer.spanId)
      ? { traceId: outer.traceId, spanId: newSpanId(), parentSpanId: outer.spanId }
      : undefined;
  }

  /** The live span started for core's span and its start name, handed over once (to the sink that will end it). */
  adopt(spanId: string): Started | undefined {
    const started = this.waiting.get(spanId);
    if (started) this.waiting.delete(spanId);
    return started;
  }

  /** The live span of core's span while it is open (to make it active around a handler or provider call). */
  spanOf(spanId: string): Span | undefined {
    return this.live.get(spanId)?.span;
  }

  /** A span started for a run span this process did not start (a resumed durable run): core's children of that run go under it. */
  continueAs(coreSpanId: string, span: Span): void {
    this.live.set(coreSpanId, { span });
    this.aliases.set(span, coreSpanId);
  }

  ended(span: Span): void {
    this.live.delete(span.spanContext().spanId);
    const alias = this.aliases.get(span);
    if (alias !== undefined) {
      this.live.delete(alias);
      this.aliases.delete(span);
    }
  }

  /**
   * Ends the run's spans that no event ever claimed (a model call whose request middleware threw
   * before the request went out), or every such span when `runId` is undefined (teardown).
   */
  endUnclaimed(runId: string | undefined, time: number): void {
    for (const [spanId, started] of this.waiting) {
      if (runId !== undefined && started.runId !== runId) continue;
      started.span.setStatus({ code: SpanStatusCode.ERROR, message: "the operation ended before its first event" });
      started.span.setAttribute("error.type", "not_started");
      started.span.end(time);
      this.waiting.delete(spanId);
      this.live.delete(spanId);
    }
  }

  private contextOf(parent: SpanContext): Context {
    const live = this.live.get(parent.spanId);
    if (live) return (live.children ??= trace.setSpan(ROOT_CONTEXT, live.span));
    // A parent another agent opened (a nested run whose outer agent traces elsewhere): its ids suffice.
    return trace.setSpanContext(ROOT_CONTEXT, {
      traceId: parent.traceId,
      spanId: parent.spanId,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: false,
    });
  }
}
