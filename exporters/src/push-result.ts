/** What a push of a recording delivered: spans (OTLP) or runs (LangSmith) the endpoint accepted, and those lost. */
export interface PushResult {
  sent: number;
  failed: number;
}
