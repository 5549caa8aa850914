import { HarnessError } from "@harnessx/core";
import type { ExtensionContext } from "@harnessx/core/extension";
import type { ResolvedRecorderSync } from "./recorder-sync-options.js";
import type { UploadSummary } from "./upload-dataset.js";

/** A background sync pass that did not send everything: the files it names are tried again by the next pass. */
export class DatasetSyncError extends HarnessError {
  constructor(
    /** The pass's summary. */
    readonly sync: UploadSummary,
  ) {
    const first = sync.failed[0];
    super(
      "dataset_sync_failed",
      `dataset sync to ${sync.target}: ${sync.failed.length} file(s) failed (first ${first?.path}: ${first?.error}); the next sync tries them again`,
    );
  }
}

/** One store's background sync: passes on a timer, one at a time, never on the agent's path. */
class BackgroundSync {
  private readonly timer: NodeJS.Timeout;
  private pass: Promise<void> | undefined;
  /** The last problem reported: the same one is not reported again each pass until a pass succeeds. */
  private reported: string | undefined;

  constructor(
    private readonly storeDir: string,
    private readonly options: ResolvedRecorderSync,
    private readonly ctx: Pick<ExtensionContext, "reportError" | "redactor">,
  ) {
    this.timer = setInterval(() => void this.runPass(), options.everyMs);
    this.timer.unref();
  }

  /** Starts a pass, or joins the one running. Never throws: failures become ERROR events (source "recorder"). */
  runPass(): Promise<void> {
    this.pass ??= (async () => {
      try {
        // Loaded here, on the first pass: the export, DuckDB and the AWS SDK stay off an agent's startup.
        const { syncDataset } = await import("./sync-dataset.js");
        const result = await syncDataset({
          storeDir: this.storeDir,
          to: this.options.to,
          connection: this.options.connection,
          redactor: this.ctx.redactor,
        });
        if (result.stoppedBy) this.report(result.stoppedBy);
        else if (result.failed.length > 0) this.report(new DatasetSyncError(result));
        else this.reported = undefined;
      } catch (error) {
        this.report(error instanceof Error ? error : new Error(String(error)));
      }
    })().finally(() => (this.pass = undefined));
    return this.pass;
  }

  /**
   * Stops the timer, lets a running pass finish, then runs the last pass if asked; waits at most
   * `closeWithinMs` for both, so a target that does not answer never holds the agent's close.
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const last = (async () => {
      await this.pass;
      if (this.options.onClose) await this.runPass();
    })();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), this.options.closeWithinMs);
      timer.unref();
    });
    const outcome = await Promise.race([last.then(() => "done" as const), late]);
    clearTimeout(timer);
    if (outcome === "late") {
      this.report(
        new HarnessError(
          "dataset_sync_slow",
          `dataset sync to ${this.options.to.url}: the last pass did not finish within ${this.options.closeWithinMs} ms of close; what it did not send goes with the next sync (trace sync)`,
        ),
      );
    }
  }

  private report(error: Error): void {
    if (error.message === this.reported) return;
    this.reported = error.message;
    this.ctx.reportError(error, { source: "recorder" }).catch(() => undefined);
  }
}

const syncs = new WeakMap<object, BackgroundSync>();

/** Starts `owner`'s background sync of `storeDir` (nothing when `options` is undefined). */
export function startRecorderSync(
  owner: object,
  storeDir: string,
  options: ResolvedRecorderSync | undefined,
  ctx: Pick<ExtensionContext, "reportError" | "redactor">,
): void {
  if (options) syncs.set(owner, new BackgroundSync(storeDir, options, ctx));
}

/** Stops `owner`'s background sync after its last pass; call once the recorder has written everything. */
export async function stopRecorderSync(owner: object): Promise<void> {
  const sync = syncs.get(owner);
  syncs.delete(owner);
  await sync?.close();
}
