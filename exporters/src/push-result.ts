/** What a push of a recording delivered: spans (OTLP) or runs (LangSmith) the endpoint accepted, and those lost. */
export interface PushResult {
  /** Spans or runs the endpoint accepted. */
  sent: number;
  /** Spans or runs that were not delivered (refused, timed out or unreachable). */
  failed: number;
}
