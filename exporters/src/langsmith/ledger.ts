import { gunzipSync } from "node:zlib";

type Op = "post" | "patch";

/**
 * Which run operations reached the LangSmith API. The SDK logs failed
 * uploads and moves on; this ledger watches the ingest requests themselves
 * (through the client's fetch) so undelivered runs can be counted.
 */
export class DeliveryLedger {
  private readonly pending = new Map<string, Map<Op, number>>();
  private generation = 0;
  private droppedRuns = 0;
  /** Runs whose every operation was accepted. */
  deliveredRuns = 0;
  /** Why the last upload that gave up failed (`HTTP 500 from ...`, `connection refused by ...`). */
  lastFailure: string | undefined;

  /** Notes that `op` (the run's create or its update) of run `runId` has been queued for upload. */
  expect(runId: string, op: Op): void {
    const ops = this.pending.get(runId) ?? new Map<Op, number>();
    ops.set(op, this.generation);
    this.pending.set(runId, ops);
  }

  private accept(runId: string, op: Op): void {
    const ops = this.pending.get(runId);
    if (!ops?.delete(op)) return;
    if (ops.size === 0) {
      this.pending.delete(runId);
      this.deliveredRuns++;
    }
  }

  /** Starts a flush: operations expected before now must be settled when it ends. */
  mark(): number {
    return ++this.generation;
  }

  /** After a flush that finished: operations from before `mark` still pending were lost. */
  settle(mark: number): void {
    for (const [runId, ops] of this.pending) {
      if ([...ops.values()].some((g) => g < mark)) {
        this.pending.delete(runId);
        this.droppedRuns++;
      }
    }
  }

  /** At close: everything still pending is lost. */
  settleAll(): void {
    this.droppedRuns += this.pending.size;
    this.pending.clear();
  }

  /** Runs counted lost so far: an operation still unconfirmed after a flush, or at close. */
  get dropped(): number {
    return this.droppedRuns;
  }

  /** Runs with an operation queued and not yet confirmed or counted lost. */
  get outstanding(): number {
    return this.pending.size;
  }

  /** Records the operations an accepted `/runs/multipart` or `/runs/batch` body carried. */
  async accepted(path: string, body: Uint8Array, headers: Headers): Promise<void> {
    const encoding = headers.get("content-encoding");
    const plain = encoding === "gzip" ? gunzipSync(body) : body;
    if (path.endsWith("/runs/multipart")) {
      const form = await new Response(plain, {
        headers: { "content-type": headers.get("content-type") ?? "" },
      }).formData();
      for (const [name, value] of form) {
        const m = /^(post|patch)\.([^.]+)$/.exec(name);
        if (!m) continue;
        const op = m[1] as Op;
        this.accept(m[2]!, op);
        // A create merged with its update carries the end time: both are delivered.
        if (
          op === "post" &&
          "end_time" in (JSON.parse(typeof value === "string" ? value : await value.text()) as object)
        )
          this.accept(m[2]!, "patch");
      }
      return;
    }
    const batch = JSON.parse(new TextDecoder().decode(plain)) as {
      post?: Array<{ id: string; end_time?: unknown }>;
      patch?: Array<{ id: string }>;
    };
    for (const p of batch.post ?? []) {
      this.accept(p.id, "post");
      if (p.end_time !== undefined) this.accept(p.id, "patch");
    }
    for (const p of batch.patch ?? []) this.accept(p.id, "patch");
  }
}
