import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import type { Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { ExportPipeline } from "../otel/export-pipeline.js";

/** Running counts of one pipeline: spans ended, exported, and lost. */
export class ExportCounts {
  ended = 0;
  exported = 0;
  failed = 0;
  /** Spans a completed flush left undelivered: the batch processor dropped them (full queue). */
  overflow = 0;

  dropped(): number {
    return this.failed + this.overflow;
  }

  unconfirmed(): number {
    return Math.max(0, this.ended - this.exported - this.failed - this.overflow);
  }
}

/** Counts what an exporter delivered and what it failed to; delegates everything. */
export class CountingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter, private readonly counts: ExportCounts) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    const n = spans.length;
    let settled = false;
    const done = (result: ExportResult) => {
      if (settled) return;
      settled = true;
      if (result.code === ExportResultCode.SUCCESS) this.counts.exported += n;
      else this.counts.failed += n;
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

/**
 * Counts sampled spans handed to a batch processor, so spans it drops without
 * a word (a full queue when the event loop never yields) show up after a flush.
 */
export class CountingSpanProcessor implements SpanProcessor, ExportPipeline {
  constructor(private readonly inner: SpanProcessor, readonly counts: ExportCounts) {}

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & 1) === 1) this.counts.ended++;
    this.inner.onEnd(span);
  }

  async forceFlush(): Promise<void> {
    const endedBefore = this.counts.ended;
    try {
      await this.inner.forceFlush();
    } finally {
      const c = this.counts;
      c.overflow = Math.max(c.overflow, endedBefore - c.exported - c.failed);
    }
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  droppedSpans(): number {
    return this.counts.dropped();
  }

  unconfirmedSpans(): number {
    return this.counts.unconfirmed();
  }
}
