import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { RunManifest } from "../format/event.js";
import { producerVersions } from "../format/layout.js";
import type { SegmentFile } from "./read-run.js";

/**
 * The `spans` rows of ended runs, kept once a query has mapped them: the mapping runs in
 * JavaScript over every event (seconds for a million of them), while DuckDB reads the rows back
 * in milliseconds. The cache lives outside the store (`HARNESSX_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/harnessx`, else `~/.cache/harnessx`; `off` keeps none), so reading a
 * recording never writes to it. A file is named by what its rows were made from: the mapping's
 * code (the recorder and core versions) and the run's sealed segments (their sha256, which a run
 * that ended never changes), so a resumed, recovered or damaged run, or a newer harnessx, maps
 * again. The oldest files go once the cache holds more than `HARNESSX_CACHE_MAX_MB` (256).
 */
export interface SpanCacheTarget {
  /** The cache file the rows go to (`<cache>/spans/<key>.parquet`). */
  file: string;
}

/** What to do with a run's cached spans: read them (`write`: where to put them should that fail), or write them once mapped. */
export type SpanCacheUse = { read: string; write: SpanCacheTarget } | { write: SpanCacheTarget };

/** The cache folder, or undefined when caching is off. */
export function cacheDir(): string | undefined {
  const dir = process.env.HARNESSX_CACHE_DIR;
  if (dir === "off") return undefined;
  if (dir) return dir;
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "harnessx");
}

function cacheKey(segments: readonly SegmentFile[]): string {
  const { recorder, core } = producerVersions();
  const made = JSON.stringify({
    format: "harnessx.spans",
    v: 2,
    mapping: `${recorder}/${core}`,
    segments: segments.map((s) => s.info!.sha256),
  });
  return createHash("sha256").update(made).digest("hex");
}

/**
 * How a run's spans can use the cache: undefined for a run still open or crashed, or with a plain
 * segment (its rows may yet change), or when caching is off; `read` when its file exists; else `write`.
 */
export async function spanCacheUse(
  run: RunManifest,
  segments: readonly SegmentFile[],
): Promise<SpanCacheUse | undefined> {
  const dir = cacheDir();
  if (!dir || run.endedAt === null || run.endedAt === undefined || run.status === "running" || run.status === "crashed")
    return undefined;
  if (segments.length === 0 || segments.some((s) => !s.sealed || !s.info)) return undefined;
  const file = join(dir, "spans", `${cacheKey(segments)}.parquet`);
  // Its name is public knowledge (versions and segment hashes): only a file this user wrote is read.
  const ours = await fs.stat(file).then(
    (stat) => stat.isFile() && (process.getuid === undefined || stat.uid === process.getuid()),
    () => false,
  );
  if (!ours) return { write: { file } };
  const now = new Date();
  // Touched on use, so the files pruned first are the ones least recently read.
  await fs.utimes(file, now, now).catch(() => undefined);
  return { read: file, write: { file } };
}

/**
 * Keeps the rows `copyTo` writes as a cache file: written to a temporary name, then renamed into
 * place; true when the file is there afterwards (pruning may drop a file bigger than the cache). Best effort: where the cache cannot be written (read-only, full) nothing is kept and
 * the next query maps again.
 */
export async function keepSpanCache(
  target: SpanCacheTarget,
  copyTo: (path: string) => Promise<void>,
): Promise<boolean> {
  const temp = `${target.file}.tmp-${process.pid}`;
  try {
    await fs.mkdir(join(target.file, ".."), { recursive: true });
    await copyTo(temp);
    await fs.rename(temp, target.file);
    await pruneNowAndThen(join(target.file, ".."));
    return await fs.access(target.file).then(
      () => true,
      () => false,
    );
  } catch {
    // Only a cache: the rows were mapped and are in the table either way.
    return false;
  } finally {
    await fs.rm(temp, { force: true }).catch(() => undefined);
  }
}

/** When each cache folder was last pruned in this process. */
const lastPruned = new Map<string, number>();
/** A folder is pruned at most this often: pruning stats every file, and an export writes a file per run. */
const PRUNE_EVERY_MS = 10_000;

/** Prunes the folder unless this process did within `PRUNE_EVERY_MS` (the first write always prunes). */
async function pruneNowAndThen(dir: string): Promise<void> {
  const now = performance.now();
  const last = lastPruned.get(dir);
  if (last !== undefined && now - last < PRUNE_EVERY_MS) return;
  lastPruned.set(dir, now);
  await prune(dir);
}

/** Removes the least recently used files while the folder holds more than the limit. */
async function prune(dir: string): Promise<void> {
  const limit = (Number(process.env.HARNESSX_CACHE_MAX_MB) || 256) * 1024 * 1024;
  const files = await Promise.all(
    (await fs.readdir(dir))
      .filter((name) => name.endsWith(".parquet"))
      .map(async (name) => ({ path: join(dir, name), ...(await fs.stat(join(dir, name))) })),
  );
  let total = files.reduce((sum, f) => sum + f.size, 0);
  for (const f of files.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= limit) break;
    await fs.rm(f.path, { force: true });
    total -= f.size;
  }
}
