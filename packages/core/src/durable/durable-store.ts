import type { Redactor } from "../redact/redactor.js";
import type { JournalPiece } from "./journal-lines.js";

/**
 * Where durable runs commit their journals: one append-only log per run. The engine hands it
 * complete, already-redacted lines; the store decides only how they reach stable storage.
 */
export interface DurableStore {
  /**
   * Appends lines to the run's journal. With `sync`, resolves only once they (and every line
   * appended before them) are on stable storage; without, once they are queued for the next
   * group commit, which a later `sync` append or `close` also forces.
   */
  append(runId: string, lines: string, sync: boolean): Promise<void>;
  /** The run's journal as written (a torn last line included, for the reader to cut); undefined when there is none. */
  read(runId: string): Promise<Buffer | undefined>;
  /**
   * The run's journal a line at a time, so a reader holds one line rather than the whole file
   * (`FileDurableStore` has it); undefined when there is none. Optional: a store without it is
   * read whole through `read`, its lines cut by the same rule (`MAX_JOURNAL_LINE_BYTES`).
   */
  readLines?(runId: string): Promise<AsyncIterable<JournalPiece> | undefined>;
  /** Forces every queued line to stable storage and releases open files. */
  close(): Promise<void>;
}

/** How commits reach the disk: `fsync` waits for every commit; `group` batches them, but still waits before and after a call to a tool that is not `safe` to run twice. */
export type Durability = "fsync" | "group";

/** What to do with a call that started before the process died and may not run twice (its `replayPolicy` is not `safe`). */
export type InterruptedCallAction = "fail" | "ask";

/** `AgentOptions.durable`: commit every phase boundary of every run to `store`, so `agent.resume(runId)` can continue it in another process. */
export interface DurableOptions {
  /** Where journals go: e.g. `new FileDurableStore(dir)`. */
  store: DurableStore;
  /** Default `fsync`. */
  durability?: Durability;
  /**
   * A call that started but whose outcome was never committed, of a tool that is not `safe`:
   * `fail` (default) gives the model an error result saying it may have run; `ask` makes it wait
   * for a human's approval, and an approved call runs again with the same idempotency key.
   */
  interrupted?: InterruptedCallAction;
}

/** What the engine needs to journal runs: the user's options and the agent's redactor. */
export interface DurableServices {
  options: DurableOptions;
  /** Every journal line goes through it: a secret never reaches the store. */
  redactor: Redactor;
}
