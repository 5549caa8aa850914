import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { FileHandle } from "node:fs/promises";
import type { DurableStore } from "./durable-store.js";
import { ResumeError } from "./resume-error.js";

const RUN_ID = /^run_[A-Za-z0-9_-]{1,128}$/;
/** The most of a journal a reader takes into memory. */
export const MAX_JOURNAL_BYTES = 512 * 1024 * 1024;

/** A run id as a file name: anything else (a path, `..`) is refused before a file is touched. */
export function checkRunId(runId: string): string {
  if (!RUN_ID.test(runId)) throw new ResumeError("bad_run_id", runId, `${JSON.stringify(runId)} is not a run id (run_ followed by letters, digits, _ or -)`);
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
    private readonly options: { /** Longest a group commit waits. Default 50 ms. */ groupCommitMs?: number } = {},
  ) {}

  async append(runId: string, lines: string, sync: boolean): Promise<void> {
    const journal = await this.journal(checkRunId(runId));
    journal.queued.push(lines);
    if (sync) return this.flush(journal);
    this.timer ??= setTimeout(() => void this.flushAll(), this.options.groupCommitMs ?? 50).unref();
  }

  async read(runId: string): Promise<Buffer | undefined> {
    const path = join(this.dir, `${checkRunId(runId)}.ndjson`);
    const open = this.open.get(runId);
    if (open) await this.flush(await open);
    const size = await fs.stat(path).then((s) => s.size, () => undefined);
    if (size === undefined) return undefined;
    if (size > MAX_JOURNAL_BYTES) throw new ResumeError("journal_corrupt", runId, `the journal of ${runId} holds ${size} bytes, more than a reader takes (${MAX_JOURNAL_BYTES})`);
    return fs.readFile(path);
  }

  async close(): Promise<void> {
    await this.flushAll();
    const journals = [...this.open.values()];
    this.open.clear();
    for (const journal of journals) await (await journal).handle.close();
  }

  private journal(runId: string): Promise<OpenJournal> {
    let journal = this.open.get(runId);
    if (!journal) {
      journal = fs.mkdir(this.dir, { recursive: true }).then(async () => {
        const path = join(this.dir, `${runId}.ndjson`);
        const created = !(await fs.stat(path).then(() => true, () => false));
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
