import {
  Extension,
  type ExtensionContext,
  type HookCallback,
  type HookEvent,
  packageVersion,
} from "@harnessx/core/extension";
import { DEFAULT_MAX_CONTENT_CHARS, SpanMapper, TRACED_EVENTS, traceEventOf } from "@harnessx/core/tracing";
import type { Client, ClientConfig } from "langsmith";
import { DropReporter } from "../util/drop-reporter.js";
import { RunSampling } from "../sampling/run-sampling.js";
import { sampleRatio } from "../sampling/sample-option.js";
import { nowMs, settleWithin } from "../util/time.js";
import { LangSmithSink, type RunHandle } from "./run-sink.js";
import { watchedClient, type WatchedClient } from "./watched-client.js";

/** Options of `LangSmithExtension`; every field is optional. */
export interface LangSmithExtensionOptions {
  /**
   * A client of your own. Without one the extension builds a `Client` from
   * `clientConfig` and the `LANGSMITH_*` variables, watching its uploads so it
   * can count runs that never arrive and keep the SDK from printing upload
   * failures (with your own client only a flush that times out is seen).
   */
  client?: Client;
  /** Settings for the client the extension builds. Default request time-out 10 s, 2 retries. */
  clientConfig?: ClientConfig;
  /** Project the runs go to. Default `LANGSMITH_PROJECT`, else "harnessx". */
  projectName?: string;
  /** Longest wait for the flush at close. Default 5000 ms. */
  flushTimeoutMs?: number;
  /** Longest string kept per message or tool result. Default 8192. */
  maxContentChars?: number;
  /**
   * Fraction of runs sent, from 0 to 1, decided once per run from its trace id as OpenTelemetry's
   * `TraceIdRatioBased` sampler decides (the OpenTelemetry extension keeps the same runs). When an
   * OpenTelemetry context is active where the run starts (an extracted `traceparent`, a span of the
   * application), its sampled flag decides instead. A run left out sends nothing. The flight
   * recorder is not affected. Default 1.
   */
  sample?: number;
}

/**
 * LangSmith runs for every agent run: a `chain` run with `llm` and `tool`
 * child runs (messages, `ls_*` metadata, `usage_metadata`, errors; spilled
 * results as references). Uploads happen in the background; a turn's end
 * starts a flush without waiting for it, and close waits at most
 * `flushTimeoutMs`. Runs that never arrive are reported as an `ERROR` event
 * (`source: "exporter"`, `dropped`).
 */
export class LangSmithExtension extends Extension {
  readonly name = "langsmith";
  override readonly version = packageVersion(import.meta.url);
  /** The client the runs go through: `options.client`, or the one the extension built. */
  readonly client: Client;
  /** The client this extension built, with the ledger of its uploads; none with a client of your own. */
  private readonly watched: WatchedClient | undefined;
  private readonly flushTimeoutMs: number;
  private readonly maxContentChars: number;
  private readonly projectName: string;
  private readonly drops = new DropReporter("langsmith", "runs");
  private readonly sampling: RunSampling;
  private readonly flushes = new Set<Promise<void>>();
  private sink: LangSmithSink | undefined;
  private tracker: SpanMapper<RunHandle> | undefined;
  private ctx: ExtensionContext | undefined;

  constructor(options: LangSmithExtensionOptions = {}) {
    super();
    this.sampling = new RunSampling(sampleRatio(options.sample, "LangSmithExtension"));
    if (options.client) {
      this.client = options.client;
    } else {
      this.watched = watchedClient(options.clientConfig);
      this.client = this.watched.client;
    }
    this.projectName = options.projectName ?? process.env.LANGSMITH_PROJECT ?? "harnessx";
    this.flushTimeoutMs = options.flushTimeoutMs ?? 5000;
    this.maxContentChars = options.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  }

  override install(ctx: ExtensionContext): void {
    this.ctx = ctx;
    const sink = new LangSmithSink({
      client: this.client,
      projectName: this.projectName,
      maxContentChars: this.maxContentChars,
      ledger: this.watched?.ledger,
      metadata: { thread_id: ctx.info.sessionId },
      redactor: ctx.redactor,
    });
    this.sink = sink;
    const tracker = new SpanMapper(
      sink,
      { name: ctx.info.name, sessionId: ctx.info.sessionId, provider: ctx.info.provider },
      { captureContent: false, maxContentChars: this.maxContentChars },
    );
    this.tracker = tracker;
    const sampling = this.sampling;
    const observe: HookCallback = (hook) => {
      if (sampling.admits(hook)) tracker.handle(traceEventOf(hook, nowMs()));
    };
    for (const event of TRACED_EVENTS) ctx.onHook<HookEvent>(event, observe);
  }

  /** Starts sending the turn's runs; never waits for the network. */
  override onTurnEnd(): void {
    void this.flush();
  }

  /** Runs still unconfirmed by the ledger (or every run, with a client of your own). */
  get undelivered(): number {
    return this.watched?.ledger.outstanding ?? 0;
  }

  private flush(): Promise<void> {
    const mark = this.watched?.ledger.mark() ?? 0;
    const sink = this.sink;
    const work = (async () => {
      while (sink && sink.inFlight.size > 0) await Promise.all([...sink.inFlight]);
      await this.client.awaitPendingTraceBatches();
      this.watched?.ledger.settle(mark);
      await this.drops.report(this.ctx, this.watched?.ledger.dropped ?? 0, this.lastFailure());
    })();
    const tracked = work.catch(() => {}).finally(() => this.flushes.delete(tracked));
    this.flushes.add(tracked);
    return tracked;
  }

  /** Ends runs still open, flushes within `flushTimeoutMs`, and reports runs that did not arrive. */
  override async close(): Promise<void> {
    this.tracker?.closeAll(nowMs());
    this.sampling.clear();
    const done = await settleWithin(Promise.all([...this.flushes, this.flush()]), this.flushTimeoutMs);
    if (this.watched) {
      // Nothing may keep retrying, or print, after close: what did not arrive by now is lost.
      this.watched.close();
      await this.drops.report(
        this.ctx,
        this.watched.ledger.dropped,
        done ? this.lastFailure() : `flush did not finish within ${this.flushTimeoutMs} ms`,
      );
    } else if (!done) {
      await this.drops.report(
        this.ctx,
        this.sink?.inFlight.size ?? 0,
        `flush did not finish within ${this.flushTimeoutMs} ms`,
      );
    }
  }

  private lastFailure(): string {
    return this.watched?.ledger.lastFailure ? `last failure: ${this.watched.ledger.lastFailure}` : "";
  }
}
