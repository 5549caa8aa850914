import type { ArtifactStore } from "@harnessx/artifacts";
import type { PendingArtifact } from "./run-recording.js";

/** The artifacts runs reference, stored (payloads moved aside) or pinned (another extension's) off the agent's path. */
export class ArtifactPins {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly artifacts: ArtifactStore) {}

  /** Starts storing and pinning; `track` follows each piece of work (its failure is the recorder's). */
  store(pending: readonly PendingArtifact[], track: (work: Promise<unknown>) => void): void {
    for (const { runId, sha256, json } of pending) {
      const holder = `run:${runId}`;
      const work =
        json !== undefined
          ? this.artifacts.put(json).then((stored) => this.artifacts.pin(stored.sha256, holder))
          : // Another extension's artifact may be gone already; the event still records the reference.
            this.artifacts.pin(sha256, holder).catch(() => undefined);
      this.inFlight.add(work);
      track(work.finally(() => this.inFlight.delete(work)));
    }
  }

  /** Resolves when the stores and pins started so far are done (failed or not). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
