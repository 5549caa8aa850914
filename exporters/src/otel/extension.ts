import {
  Extension,
  type ExtensionContext,
  type HookCallback,
  type HookEvent,
  packageVersion,
} from "@harnessx/core/extension";
import {
  DEFAULT_MAX_CONTENT_CHARS,
  SpanMapper,
  TRACED_EVENTS,
  currentScope,
  redactSpanName,
  traceEventOf,
} from "@harnessx/core/tracing";
import { TraceFlags, context, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { nowMs } from "../util/time.js";
import { DropReporter } from "../util/drop-reporter.js";
import { RunSampling } from "../sampling/run-sampling.js";
import { sampleRatio } from "../sampling/sample-option.js";
import type { ExportPipeline } from "./export-pipeline.js";
import { LiveSpans } from "./live-spans.js";
import { OtelSink } from "./otel-sink.js";

/** Options of `OpenTelemetryExtension`; every field is optional. */
export interface OpenTelemetryExtensionOptions {
  /** Default: the global tracer provider's `@harnessx/exporters` tracer (or `telemetry.tracer`). */
  tracer?: Tracer;
  /** Record prompts, replies, tool arguments and results on spans (GenAI JSON shapes). Default false. */
  captureContent?: boolean;
  /** Longest string kept per content part; longer ones are cut and their length recorded. Default 8192. */
  maxContentChars?: number;
  /** The export pipeline to flush at close and read losses from (what `setupTelemetry()` returns). */
  telemetry?: ExportPipeline & {
    /** Tracer used when `tracer` is not given. */
    tracer?: Tracer;
  };
  /** Longest wait for the flush at close. Default 5000 ms. */
  flushTimeoutMs?: number;
  /**
   * Fraction of runs exported, from 0 to 1, decided once per run from its trace id as OpenTelemetry's
   * `TraceIdRatioBased` sampler decides (the LangSmith extension keeps the same runs). A sampled
   * parent context where the run starts exports it whatever the ratio; an unsampled one drops it.
   * A run left out sends no span. The flight recorder is not affected. Default 1.
   */
  sample?: number;
}

/**
 * OpenTelemetry spans for every run, following the GenAI semantic conventions:
 * `invoke_agent {agent}` > `chat {model}` (CLIENT) and `execute_tool {tool}`.
 * Uses `@opentelemetry/api` only; with no SDK installed every call is a no-op. It gives core its
 * span ids (`ctx.useSpanIds`), so a trace found in a backend and its recording share every id.
 */
export class OpenTelemetryExtension extends Extension {
  readonly name = "opentelemetry";
  override readonly version = packageVersion(import.meta.url);
  private readonly tracer: Tracer;
  private readonly options: Required<
    Pick<OpenTelemetryExtensionOptions, "captureContent" | "maxContentChars" | "flushTimeoutMs">
  >;
  private readonly telemetry: ExportPipeline | undefined;
  private readonly drops = new DropReporter("opentelemetry", "spans");
  private readonly sampling: RunSampling;
  private tracker: SpanMapper<Span> | undefined;
  private live: LiveSpans | undefined;
  private ctx: ExtensionContext | undefined;

  constructor(options: OpenTelemetryExtensionOptions = {}) {
    super();
    this.sampling = new RunSampling(sampleRatio(options.sample, "OpenTelemetryExtension"));
    this.telemetry = options.telemetry;
    this.tracer = options.tracer ?? options.telemetry?.tracer ?? trace.getTracer("@harnessx/exporters", "0.1.0");
    this.options = {
      captureContent: options.captureContent ?? false,
      maxContentChars: options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS,
      flushTimeoutMs: options.flushTimeoutMs ?? 5000,
    };
  }

  override install(ctx: ExtensionContext): void {
    this.ctx = ctx;
    const sampling = this.sampling;
    const live = new LiveSpans(this.tracer, sampling, (name) => redactSpanName(name, ctx.redactor));
    this.live = live;
    ctx.useSpanIds(live);
    const tracker = new SpanMapper(
      new OtelSink(this.tracer, ctx.redactor, live),
      { name: ctx.info.name, sessionId: ctx.info.sessionId, provider: ctx.info.provider },
      this.options,
    );
    this.tracker = tracker;
    const observe: HookCallback = (hook) => {
      if (!sampling.admits(hook)) return;
      const ts = nowMs();
      tracker.handle(traceEventOf(hook, ts));
      if (hook.event === "agent_end" && hook.runId) live.endUnclaimed(hook.runId, ts);
    };
    for (const event of TRACED_EVENTS) ctx.onHook<HookEvent>(event, observe);
    // Makes `execute_tool` / `chat` the active span inside handlers and provider calls, so
    // instrumented clients there (HTTP, databases) nest under them. In a run sampled out, an unsampled
    // context is active instead, so their spans and the `traceparent` they send on are dropped too.
    const active = () => {
      const scope = currentScope();
      if (!scope) return undefined;
      return (
        live.spanOf(scope.span.spanId) ??
        (sampling.keeps(scope.runId)
          ? undefined
          : trace.wrapSpanContext({
              traceId: scope.span.traceId,
              spanId: scope.span.spanId,
              traceFlags: TraceFlags.NONE,
            }))
      );
    };
    ctx.addMiddleware({
      name: "OpenTelemetryContext",
      wrapToolExecution: (_call, execute) => this.within(active(), execute),
      wrapModelCall: (_request, send) => this.within(active(), send),
    });
  }

  private within<T>(span: Span | undefined, work: () => Promise<T>): Promise<T> {
    return span ? context.with(trace.setSpan(context.active(), span), work) : work();
  }

  /**
   * The context of a tool call's `execute_tool` span (or the run's open span): the
   * extension already makes it active around handlers and provider calls; use this to
   * parent work started elsewhere. Falls back to the active context.
   */
  contextFor(execution: { runId: string; toolCall?: { id: string } }): Context {
    const span =
      this.tracker?.openHandle(execution.runId, execution.toolCall?.id) ?? this.tracker?.openHandle(execution.runId);
    return span ? trace.setSpan(context.active(), span) : context.active();
  }

  /** Reports losses seen so far; never waits on the network. */
  override onTurnEnd(): Promise<void> | undefined {
    return this.telemetry ? this.drops.report(this.ctx, this.telemetry.droppedSpans()) : undefined;
  }

  /** Ends spans still open, flushes within `flushTimeoutMs` and reports what was lost. */
  override async close(): Promise<void> {
    const now = nowMs();
    this.tracker?.closeAll(now);
    this.live?.endUnclaimed(undefined, now);
    this.sampling.clear();
    if (!this.telemetry) return;
    const { flushed, dropped } = await this.telemetry.flushWithin(this.options.flushTimeoutMs);
    await this.drops.report(
      this.ctx,
      dropped,
      flushed ? "" : `flush did not finish within ${this.options.flushTimeoutMs} ms`,
    );
  }
}
