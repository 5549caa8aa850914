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

  get dropped(): number {
    return this.droppedRuns;
  }

  get outstanding(): number {
    return this.pending.size;
  }

  /** Records the operations an accepted `/runs/multipart` or `/runs/batch` body carried. */
  async accepted(path: string, body: Uint8Array, headers: Headers): Promise<void> {
    const encoding = headers.get("content-encoding");
    const plain = encoding === "gzip" ? gunzipSync(body) : body;
    if (path.endsWith("/runs/multipart")) {
      const form = await new Response(plain, { headers: { "content-type": headers.get("content-type") ?? "" } }).formData();
      for (const [name, value] of form) {
        const m = /^(post|patch)\.([^.]+)$/.exec(name);
        if (!m) continue;
        const op = m[1] as Op;
        this.accept(m[2], op);
        // A create merged with its update carries the end time: both are delivered.
        if (op === "post" && "end_time" in (JSON.parse(typeof value === "string" ? value : await value.text()) as object)) this.accept(m[2], "patch");
      }
      return;
    }
    const batch = JSON.parse(new TextDecoder().decode(plain)) as { post?: Array<{ id: string; end_time?: unknown }>; patch?: Array<{ id: string }> };
    for (const p of batch.post ?? []) {
      this.accept(p.id, "post");
      if (p.end_time !== undefined) this.accept(p.id, "patch");
    }
    for (const p of batch.patch ?? []) this.accept(p.id, "patch");
  }
}

/**
 * A fetch that reports accepted ingest requests to `ledger`; everything else
 * passes through untouched. Once `stop` aborts, requests in flight are aborted
 * and new ones fail at once (as an "AbortError", which the SDK does not retry),
 * so a closed exporter leaves no retries running.
 */
export function ledgerFetch(ledger: DeliveryLedger, inner: typeof fetch = fetch, stop?: AbortSignal): typeof fetch {
  return async (input, init) => {
    if (stop?.aborted) throw new Error("AbortError: the LangSmith exporter is closed");
    const signal = stop ? (init?.signal ? AbortSignal.any([init.signal, stop]) : stop) : init?.signal;
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url).pathname;
    if (!init?.body || !(path.endsWith("/runs/multipart") || path.endsWith("/runs/batch"))) return inner(input, { ...init, ...(signal ? { signal } : {}) });
    const body = new Uint8Array(await new Response(init.body).arrayBuffer());
    const response = await inner(input, { ...init, body, ...(signal ? { signal } : {}) });
    if (response.ok) {
      try {
        await ledger.accepted(path, body, new Headers(init.headers));
      } catch {
        // An unreadable body cannot be credited: its runs stay pending and count as lost if never confirmed.
      }
    }
    return response;
  };
}
