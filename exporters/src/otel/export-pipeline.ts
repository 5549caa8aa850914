/**
 * What an extension needs of an export pipeline to flush at close and report
 * losses: `setupTelemetry()` returns one. Structural, so the extension itself
 * depends on `@opentelemetry/api` only.
 */
export interface ExportPipeline {
  /** Exports everything ended so far. */
  forceFlush(): Promise<void>;
  /** Spans known lost: failed exports, and spans a completed flush never delivered (a full queue). */
  droppedSpans(): number;
  /** Spans ended but neither exported nor known lost yet (queued, in flight, or silently dropped). */
  unconfirmedSpans?(): number;
}
