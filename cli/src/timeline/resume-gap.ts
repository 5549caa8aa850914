import type { RecordedEvent } from "@harnessx/recorder";

/**
 * How long a durable run was without a process: from its last event before the crash to the
 * `recovery` (reason `resumed`) of the process that resumed it. Fed every event in order.
 */
export class ResumeGaps {
  private lastTs: number | undefined;
  private beforeRestart: number | undefined;

  /** Notes an event; for a `resumed` recovery, the milliseconds since the run's last event before it was resumed. */
  note(event: RecordedEvent): number | undefined {
    if (event.kind === "agent_start" && event.attrs?.restored === true) this.beforeRestart = this.lastTs;
    const gap =
      event.kind === "recovery" && event.attrs?.reason === "resumed" && this.beforeRestart !== undefined
        ? event.ts - this.beforeRestart
        : undefined;
    // The recorder's own events (`recorder.recovered`) are stamped when the recording was sealed, not when the run acted.
    if (!event.kind.startsWith("recorder.")) this.lastTs = event.ts;
    return gap;
  }
}
