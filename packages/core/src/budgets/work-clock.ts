/** A run's working time: runs while the run works, stands still while it waits for approval. */
export class WorkClock {
  private since: number | undefined;

  /** `workedMs`: time already worked (a durable run resumed in a new process goes on from it). */
  constructor(private worked = 0) {}

  start(): void {
    this.since ??= performance.now();
  }

  pause(): void {
    if (this.since === undefined) return;
    this.worked += performance.now() - this.since;
    this.since = undefined;
  }

  get elapsedMs(): number {
    return this.worked + (this.since === undefined ? 0 : performance.now() - this.since);
  }
}
