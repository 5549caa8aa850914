/** The idempotency key of a call: one per call of a run, stable across its attempts and resumes. */
export function idempotencyKeyOf(runId: string, callId: string): string {
  return `${runId}:${callId}`;
}
