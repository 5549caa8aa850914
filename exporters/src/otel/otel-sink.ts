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
import type { Redactor } from "@harnessx/core/extension";
import {
  redactAttributes,
  redactEvent,
  redactSpanName,
  type RepeatedValues,
  type SpanClose,
  type SpanContext,
  type SpanEventSpec,
  type SpanOpen,
  type SpanSink,
} from "@harnessx/core/tracing";
import type { LiveSpans } from "./live-spans.js";

/**
 * Spans through `@opentelemetry/api`. A run span is a child of whatever span is
 * active where the run started; model and tool spans are children of the run
 * span by explicit parent, so parallel tool calls are siblings. Every string attribute and
 * error message passes the agent's redaction policy before it reaches the SDK. A span core already
 * had started live (its ids are the recording's) is adopted rather than started again.
 */
export class OtelSink implements SpanSink<Span> {
  /** The context of each open run span, built once for all its children. */
  private readonly contexts = new WeakMap<Span, Context>();
  /** Redacted values of the attributes that repeat on every span (provider, session, model...). */
  private readonly repeated: RepeatedValues = new Map();

  constructor(
    private readonly tracer: Tracer,
    private readonly redactor: Redactor,
    private readonly live: LiveSpans,
  ) {}

  private contextOf(parent: Span): Context {
    let ctx = this.contexts.get(parent);
    if (!ctx) this.contexts.set(parent, (ctx = trace.setSpan(ROOT_CONTEXT, parent)));
    return ctx;
  }

  open(span: SpanOpen, parent: Span | undefined): Span {
    const adopted = span.span && this.live.adopt(span.span.spanId);
    if (adopted) {
      // The name core gave at the start may predate what the request said (a model middleware changed).
      if (adopted.name !== span.name) adopted.span.updateName(redactSpanName(span.name, this.redactor, this.repeated));
      adopted.span.setAttributes(redactAttributes(span.attributes, this.redactor, this.repeated));
      return adopted.span;
    }
    const resumed = !parent && span.role === "agent" ? span.span : undefined;
    const parentContext = parent ? this.contextOf(parent) : resumed ? continuing(resumed) : context.active();
    const started = this.tracer.startSpan(
      redactSpanName(span.name, this.redactor, this.repeated),
      {
        kind: span.kind === "CLIENT" ? SpanKind.CLIENT : SpanKind.INTERNAL,
        attributes: redactAttributes(span.attributes, this.redactor, this.repeated),
        startTime: span.time,
      },
      parentContext,
    );
    if (resumed) this.live.continueAs(resumed.spanId, started);
    return started;
  }

  event(handle: Span, event: SpanEventSpec): void {
    handle.addEvent(event.name, redactEvent(event, this.redactor).attributes, event.time);
  }

  close(handle: Span, close: SpanClose): void {
    handle.setAttributes(redactAttributes(close.attributes, this.redactor, this.repeated));
    if (close.error)
      handle.setStatus({ code: SpanStatusCode.ERROR, message: this.redactor.redactText(close.error.message) });
    handle.end(close.time);
    this.live.ended(handle);
  }
}

/**
 * A run span this process did not start, with core's ids: a durable run resumed in a new process
 * (`agent.resume(runId)`) keeps its run's ids, which the SDK cannot give a new span. Its span here
 * goes in the same trace, as a child of the run's original span, and the resumed part's model and
 * tool spans go under it.
 */
function continuing(run: SpanContext): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: run.traceId,
    spanId: run.spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}
