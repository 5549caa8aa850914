import { ReadResultError } from "./errors.js";
import type { ResultTable } from "./result-table.js";

/** Loaded result tables, least recently used closed first; loads in flight are shared. */
export class TableCache {
  private readonly tables = new Map<string, Promise<ResultTable>>();
  private closed = false;

  constructor(private readonly capacity: number) {}

  get(key: string, load: () => Promise<ResultTable>): Promise<ResultTable> {
    // A load started after closeAll (a reload in the background) would start a process nobody closes.
    if (this.closed)
      return Promise.reject(new ReadResultError("closed", "the result database was closed; call read_result again"));
    let table = this.tables.get(key);
    if (table) {
      this.tables.delete(key);
    } else {
      table = load();
      table.catch(() => this.tables.delete(key));
    }
    this.tables.set(key, table);
    this.evict();
    return table;
  }

  /** Keeps an already loaded table (e.g. built while spilling); a duplicate closes. */
  put(key: string, table: ResultTable): void {
    if (this.closed || this.tables.has(key)) {
      void table.close();
      return;
    }
    this.tables.set(key, Promise.resolve(table));
    this.evict();
  }

  /** Forgets and closes the table under `key` (e.g. its database was stopped), so the next get loads it again. */
  delete(key: string): void {
    const table = this.tables.get(key);
    this.tables.delete(key);
    void table?.then(
      (t) => t.close(),
      () => undefined,
    );
  }

  private evict(): void {
    while (this.tables.size > this.capacity) {
      const [oldest, table] = this.tables.entries().next().value as [string, Promise<ResultTable>];
      this.tables.delete(oldest);
      void table.then(
        (t) => t.close(),
        () => undefined,
      );
    }
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.tables.values()];
    this.tables.clear();
    await Promise.all(
      all.map((t) =>
        t.then(
          (table) => table.close(),
          () => undefined,
        ),
      ),
    );
  }
}
