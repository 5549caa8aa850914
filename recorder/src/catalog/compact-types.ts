/** Options of `compactCatalog`. */
export interface CompactCatalogOptions {
  /**
   * Build the snapshot from the runs' folders (every `run.json`) rather than from the catalog:
   * for a store without a catalog, or with a damaged one.
   */
  rebuild?: boolean;
  /**
   * How long a compaction waits, once it has started a new log, before it reads the older ones:
   * a writer that listed the logs just before may still append to the older one. Default 2000 ms.
   */
  graceMs?: number;
}

/** What `compactCatalog` did: compacted, or found another process compacting. */
export type CompactCatalogResult = CatalogCompacted | CatalogBusy;

/** The catalog was compacted (or rebuilt). */
export interface CatalogCompacted {
  /** True: the snapshot was written. */
  done: true;
  /** Runs the new snapshot holds. */
  runs: number;
  /** Logs folded into it and deleted. */
  foldedLogs: number;
}

/** Another live process is compacting the catalog (it holds `compact.lock`): nothing was done. */
export interface CatalogBusy {
  /** False: nothing was written. */
  done: false;
  /** The process holding the lock. */
  busyPid: number;
}
