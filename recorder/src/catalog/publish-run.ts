import { appendFileSync, mkdirSync } from "node:fs";
import { basename } from "node:path";
import type { RunManifest } from "../format/event.js";
import { catalogDirOf, storeRootOf } from "../format/layout.js";
import { catalogRunOf, type CatalogEntry } from "./catalog-entry.js";
import { compactWhenLarge } from "./background-compaction.js";
import { logGenerations, logPath } from "./catalog-files.js";
import { MAX_CATALOG_LINE_BYTES } from "./catalog-lines.js";

/**
 * Tells the store's catalog the run's state, just after its `run.json` was written: every
 * writer of a run.json (the recorder, `recover`, tail retention) calls it. The manifest is
 * written first, so a kill between the two leaves the catalog behind the run, never ahead; the
 * next reader finds a folder it does not know and reads it (`reconcileFolders`).
 */
export function publishRun(runDir: string, manifest: RunManifest): void {
  appendEntry(runDir, { folder: basename(runDir), writtenAt: Date.now(), run: catalogRunOf(manifest) });
}

/** Tells the catalog the run's folder was deleted (size or age retention). */
export function forgetRun(runDir: string): void {
  appendEntry(runDir, { folder: basename(runDir), writtenAt: Date.now(), run: null });
}

/**
 * One `appendFileSync` per entry to the newest log, opened with `O_APPEND`, so lines of several
 * processes never interleave. Each line starts with a newline too: a line a killed writer tore
 * then ends there, and the next writer's line stays whole.
 */
function appendEntry(runDir: string, entry: CatalogEntry): void {
  const root = storeRootOf(runDir);
  appendEntries(root, [entry]);
  compactWhenLarge(root);
}

/** Appends entries to the catalog of the store at `root` (one write), making its folder when it has none. */
export function appendEntries(root: string, entries: readonly CatalogEntry[]): void {
  if (entries.length === 0) return;
  const dir = catalogDirOf(root);
  const text = entries.map((entry) => `\n${boundedText(entry)}\n`).join("");
  try {
    appendFileSync(logPath(dir, logGenerations(dir).at(-1) ?? 1), text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dir, { recursive: true });
    appendFileSync(logPath(dir, logGenerations(dir).at(-1) ?? 1), text);
  }
}

/** The entry's JSON, with a run's unbounded parts (its models, its error message) cut when it would pass a reader's line limit. */
function boundedText(entry: CatalogEntry): string {
  const text = JSON.stringify(entry);
  if (Buffer.byteLength(text) <= MAX_CATALOG_LINE_BYTES || !entry.run) return text;
  const { run } = entry;
  const error = run.error ? { ...run.error, message: run.error.message.slice(0, 4096) } : undefined;
  return JSON.stringify({ ...entry, run: { ...run, models: run.models.slice(0, 16), ...(error ? { error } : {}) } });
}
