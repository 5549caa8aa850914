import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { redactAttributes, redactEvent, type Redactor, type RepeatedValues, type SpanClose, type SpanEventSpec, type SpanOpen, type SpanSink } from "@harnessx/core";
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

  constructor(private readonly tracer: Tracer, private readonly redactor: Redactor, private readonly live: LiveSpans) {}

  private contextOf(parent: Span): Context {
    let ctx = this.contexts.get(parent);
    if (!ctx) this.contexts.set(parent, (ctx = trace.setSpan(ROOT_CONTEXT, parent)));
    return ctx;
  }

  open(span: SpanOpen, parent: Span | undefined): Span {
    const started = span.span && this.live.adopt(span.span.spanId);
    if (started) {
      // The name core gave at the start may predate what the request said (a model middleware changed).
      if (started.name !== span.name) started.span.updateName(span.name);
      started.span.setAttributes(redactAttributes(span.attributes, this.redactor, this.repeated));
      return started.span;
    }
    const parentContext = parent ? this.contextOf(parent) : context.active();
    return this.tracer.startSpan(
      span.name,
      { kind: span.kind === "CLIENT" ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes: redactAttributes(span.attributes, this.redactor, this.repeated), startTime: span.time },
      parentContext,
    );
  }

  event(handle: Span, event: SpanEventSpec): void {
    handle.addEvent(event.name, redactEvent(event, this.redactor).attributes, event.time);
  }

  close(handle: Span, close: SpanClose): void {
    handle.setAttributes(redactAttributes(close.attributes, this.redactor, this.repeated));
    if (close.error) handle.setStatus({ code: SpanStatusCode.ERROR, message: this.redactor.redactString(close.error.message) });
    handle.end(close.time);
    this.live.ended(handle);
  }
}
