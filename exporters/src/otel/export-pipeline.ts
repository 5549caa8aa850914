/** How a bounded flush ended. */
export interface FlushOutcome {
  /** False when the time limit passed first. */
  flushed: boolean;
  /** Spans lost so far, these included. */
  dropped: number;
}

/**
 * What an extension needs of an export pipeline to flush at close and report
 * losses: `setupTelemetry()` returns one. Structural, so the extension itself
 * depends on `@opentelemetry/api` only.
 */
export interface ExportPipeline {
  /** Exports everything ended so far. */
  forceFlush(): Promise<void>;
  /**
   * Flushes for at most `timeoutMs`. Spans still unconfirmed then are counted lost (once) and
   * their requests abandoned, so nothing keeps sending what was already reported lost.
   */
  flushWithin(timeoutMs: number): Promise<FlushOutcome>;
  /** Spans known lost: refused by a full queue, in failed exports, or written off at a deadline. */
  droppedSpans(): number;
}
