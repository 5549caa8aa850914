import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { FileHandle } from "node:fs/promises";
import { openRegularFile, readRegularFile, RefusedFileError } from "../files/regular-file.js";
import type { DurableStore } from "./durable-store.js";
import { JournalLineSplitter, MAX_JOURNAL_LINE_BYTES, type JournalPiece } from "./journal-lines.js";
import { ResumeError } from "./resume-error.js";

const RUN_ID = /^run_[A-Za-z0-9_-]{1,128}$/;
/** The most of a journal `read` takes into memory (`readLines`, which resuming uses, holds one line at a time). */
export const MAX_JOURNAL_BYTES = 512 * 1024 * 1024;
/** Bytes read from a journal at a time by `readLines`. */
const CHUNK_BYTES = 1024 * 1024;

/** Options of `FileDurableStore`. */
export interface FileDurableStoreOptions {
  /** Longest a group commit waits. Default 50 ms. */
  groupCommitMs?: number;
  /** The longest journal line `readLines` takes (a run whose tools return more cannot be resumed). Default `MAX_JOURNAL_LINE_BYTES`, 64 MiB. */
  maxLineBytes?: number;
}

/** A run id as a file name: anything else (a path, `..`) is refused before a file is touched. */
export function checkRunId(runId: string): string {
  if (!RUN_ID.test(runId))
    throw new ResumeError(
      "bad_run_id",
      runId,
      `${JSON.stringify(runId)} is not a run id (run_ followed by letters, digits, _ or -)`,
    );
  return runId;
}

interface OpenJournal {
  handle: FileHandle;
  queued: string[];
  /** The write (and sync) in progress; the next one starts after it. */
  writing: Promise<void>;
}

/**
 * Journals as files, `<dir>/<runId>.ndjson`, appended through one open handle per run. A synced
 * append is written and `fdatasync`ed before it resolves; a group append waits in memory until
 * the next synced append of its run, `groupCommitMs` later at most, or `close`.
 */
export class FileDurableStore implements DurableStore {
  private readonly open = new Map<string, Promise<OpenJournal>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The folder holding the journals; created on first use. */
    readonly dir: string,
    private readonly options: FileDurableStoreOptions = {},
  ) {
    const max = options.maxLineBytes;
    if (max !== undefined && !(Number.isSafeInteger(max) && max > 0))
      throw new TypeError(
        `FileDurableStore: maxLineBytes must be a positive whole number of bytes, got ${String(max)}`,
      );
  }

  async append(runId: string, lines: string, sync: boolean): Promise<void> {
    const journal = await this.journal(checkRunId(runId));
    journal.queued.push(lines);
    if (sync) return this.flush(journal);
    this.timer ??= setTimeout(() => void this.flushAll(), this.options.groupCommitMs ?? 50).unref();
  }

  async read(runId: string): Promise<Buffer | undefined> {
    const path = await this.settledPath(runId);
    return refusedAs(
      runId,
      readRegularFile(path, {
        maxBytes: MAX_JOURNAL_BYTES,
        what: `the journal of ${runId}`,
        raise: "resume reads it a line at a time through readLines",
      }),
    );
  }

  async readLines(runId: string): Promise<AsyncIterable<JournalPiece> | undefined> {
    const path = await this.settledPath(runId);
    const handle = await refusedAs(runId, openRegularFile(path));
    if (!handle) return undefined;
    return piecesFrom(handle, new JournalLineSplitter(runId, this.options.maxLineBytes ?? MAX_JOURNAL_LINE_BYTES));
  }

  async close(): Promise<void> {
    await this.flushAll();
    const journals = [...this.open.values()];
    this.open.clear();
    for (const journal of journals) await (await journal).handle.close();
  }

  /** The journal's path once every line queued for it is written. */
  private async settledPath(runId: string): Promise<string> {
    const path = join(this.dir, `${checkRunId(runId)}.ndjson`);
    const open = this.open.get(runId);
    if (open) await this.flush(await open);
    return path;
  }

  private journal(runId: string): Promise<OpenJournal> {
    let journal = this.open.get(runId);
    if (!journal) {
      journal = fs.mkdir(this.dir, { recursive: true }).then(async () => {
        const path = join(this.dir, `${runId}.ndjson`);
        const created = !(await fs.stat(path).then(
          () => true,
          () => false,
        ));
        const handle = await fs.open(path, "a");
        // A new file's name is durable only once its folder is synced: else a power cut could lose the whole journal.
        if (created) await syncFolder(this.dir);
        return { handle, queued: [], writing: Promise.resolve() };
      });
      this.open.set(runId, journal);
    }
    return journal;
  }

  private async flushAll(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const journal of this.open.values()) await this.flush(await journal);
  }

  /** Writes what is queued, then syncs; appends made meanwhile go in the next write. */
  private flush(journal: OpenJournal): Promise<void> {
    journal.writing = journal.writing.then(async () => {
      if (journal.queued.length === 0) return;
      const text = journal.queued.join("");
      journal.queued = [];
      await journal.handle.appendFile(text);
      await journal.handle.datasync();
    });
    return journal.writing;
  }
}

/** Undefined for a journal that does not exist; a path that is not a regular file or is too large is a `ResumeError`. */
async function refusedAs<T>(runId: string, reading: Promise<T>): Promise<T | undefined> {
  try {
    return await reading;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    if (error instanceof RefusedFileError)
      throw new ResumeError(
        error.problem === "too_large" ? "journal_too_large" : "journal_not_a_file",
        runId,
        error.message,
      );
    throw error;
  }
}

/** The journal's lines, read a chunk at a time from `handle` (closed at the end, or when the reader stops). */
async function* piecesFrom(handle: FileHandle, splitter: JournalLineSplitter): AsyncGenerator<JournalPiece> {
  try {
    for (;;) {
      // A new chunk each time: the splitter keeps views of the last one (a line's start).
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      for (const line of splitter.push(chunk.subarray(0, bytesRead))) yield { line };
    }
    if (splitter.end() > 0) yield { tornBytes: splitter.end() };
  } finally {
    await handle.close();
  }
}

async function syncFolder(dir: string): Promise<void> {
  // Some platforms (Windows) cannot open a folder to sync it: there the name is left to the file system.
  const folder = await fs.open(dir, "r").catch(() => undefined);
  if (!folder) return;
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
