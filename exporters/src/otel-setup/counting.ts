import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import type { Context, MeterProvider } from "@opentelemetry/api";
import {
  BatchSpanProcessor,
  type BufferConfig,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { ExportPipeline, FlushOutcome } from "../otel/export-pipeline.js";
import { settleWithin } from "../util/time.js";
import { queueFullListener } from "./drop-meter.js";
import { canAbandon } from "../otlp/otlp-exporter.js";

/** One export call: how many of its spans still await their outcome, and a way to wait for it. */
interface Batch {
  readonly spans: number;
  readonly settled: Promise<void>;
  readonly settle: () => void;
}

/**
 * Where every sampled span of a pipeline stands. Each reaches one outcome, once: exported, or
 * lost (dropped at a full queue, in a failed export, or unconfirmed at a flush deadline). A result
 * arriving for spans already written off changes nothing, so no span is counted twice.
 */
export class ExportCounts {
  /** Sampled spans that ended and were handed to the batch processor. */
  ended = 0;
  /** Spans the exporter confirmed as delivered. */
  exported = 0;
  /** Spans that will never be delivered: dropped at a full queue, in a failed export, or written off at a deadline. */
  lost = 0;
  private queued = 0;
  /** Queued spans written off at a deadline that the processor may still hand over (it sends oldest first). */
  private writtenOff = 0;
  private readonly inFlight = new Set<Batch>();

  /** A sampled span ended and was handed to the batch processor. */
  accept(): void {
    this.ended++;
    this.queued++;
  }

  /** The batch processor dropped `n` spans it was handed: its queue was full. */
  refused(n: number): void {
    const spans = Math.min(n, this.queued);
    this.queued -= spans;
    this.lost += spans;
  }

  /** `n` queued spans were handed to the exporter. */
  send(n: number): Batch {
    const alreadyLost = Math.min(n, this.writtenOff);
    this.writtenOff -= alreadyLost;
    const spans = Math.min(n - alreadyLost, this.queued);
    this.queued -= spans;
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const batch = { spans, settled, settle };
    this.inFlight.add(batch);
    return batch;
  }

  /** The exporter answered for `batch`. */
  answer(batch: Batch, exported: boolean): void {
    if (!this.inFlight.delete(batch)) return;
    if (exported) this.exported += batch.spans;
    else this.lost += batch.spans;
    batch.settle();
  }

  /** At a deadline: every span not confirmed yet is lost. Returns how many that was. */
  writeOff(): number {
    const count = this.unconfirmed();
    const inFlight = [...this.inFlight];
    this.inFlight.clear();
    this.lost += count;
    this.writtenOff += this.queued;
    this.queued = 0;
    for (const batch of inFlight) batch.settle();
    return count;
  }

  /** Settles once every export in flight now has been answered (or written off). */
  inFlightSettled(): Promise<void> {
    return Promise.all([...this.inFlight].map((b) => b.settled)).then(() => {});
  }

  /** The same as `lost`. */
  dropped(): number {
    return this.lost;
  }

  /** Spans ended but neither exported nor known lost: queued or in flight. */
  unconfirmed(): number {
    return this.queued + [...this.inFlight].reduce((n, b) => n + b.spans, 0);
  }
}

/** Tells `counts` what the exporter was handed and how each export ended; delegates everything. */
export class CountingSpanExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly counts: ExportCounts,
  ) {}

  /** Passes the `ReadableSpan`s to the wrapped exporter and counts them exported or lost when it answers (or throws). */
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    const batch = this.counts.send(spans.length);
    let answered = false;
    const done = (result: ExportResult) => {
      if (answered) return;
      answered = true;
      this.counts.answer(batch, result.code === ExportResultCode.SUCCESS);
      resultCallback(result);
    };
    try {
      this.inner.export(spans, done);
    } catch (error) {
      done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Counts the sampled spans a batch processor is handed and bounds its flushes; built by `countingBatchProcessor`. */
export class CountingSpanProcessor implements SpanProcessor, ExportPipeline {
  /** `abandon` stops the exporter's requests in flight once their spans are written off. */
  constructor(
    private readonly inner: SpanProcessor,
    /** Where every sampled span this processor was handed stands. */
    readonly counts: ExportCounts,
    private readonly abandon: () => void = () => {},
  ) {}

  /** Passes the started `Span` on to the wrapped processor. */
  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  /** Counts the ended `ReadableSpan` when it is sampled, then passes it on to the wrapped processor. */
  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & 1) === 1) this.counts.accept();
    this.inner.onEnd(span);
  }

  /** Hands every queued span to the exporter and waits for every export in flight. Never rejects: failures are counted. */
  async forceFlush(): Promise<void> {
    await this.inner.forceFlush().catch(() => {});
    await this.counts.inFlightSettled();
  }

  async flushWithin(timeoutMs: number): Promise<FlushOutcome> {
    const flushed = await settleWithin(this.forceFlush(), timeoutMs);
    if (!flushed) this.writeOff();
    return { flushed, dropped: this.counts.dropped() };
  }

  /** Counts every span not confirmed yet as lost and stops sending them. Returns how many that was. */
  writeOff(): number {
    const count = this.counts.writeOff();
    this.abandon();
    return count;
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  droppedSpans(): number {
    return this.counts.dropped();
  }
}

/**
 * A BatchSpanProcessor over `exporter`, counted: every sampled span ends exported or lost, once,
 * including spans it drops at a full queue (heard through its self-observability meter). Unset
 * `batch` settings come from `OTEL_BSP_*`, then the SDK defaults.
 */
export function countingBatchProcessor(exporter: SpanExporter, batch: BufferConfig = {}): CountingSpanProcessor {
  const counts = new ExportCounts();
  // An option of the processor the shim extends (`@opentelemetry/sdk-trace`), not yet in the shim's type.
  const config: BufferConfig & { selfObsMeterProvider: MeterProvider } = {
    ...batch,
    selfObsMeterProvider: queueFullListener((n) => counts.refused(n)),
  };
  const abandon = canAbandon(exporter) ? () => exporter.abortInFlight() : undefined;
  return new CountingSpanProcessor(
    new BatchSpanProcessor(new CountingSpanExporter(exporter, counts), config),
    counts,
    abandon,
  );
}
