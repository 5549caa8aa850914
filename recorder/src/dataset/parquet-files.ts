import { createHash, randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { openRegularFile } from "@harnessx/core/extension";
import { sqlString } from "../store/sql-literal.js";

/**
 * The Parquet key-value metadata entry naming what a run's file was exported from (see
 * `sourceDigest`): a run whose `runs` file carries its current digest is already exported.
 */
export const SOURCE_DIGEST_KEY = "harnessx_source";

/**
 * Writes a query's rows to a Parquet file the way every dataset file is written: DuckDB's
 * `COPY ... (FORMAT parquet, COMPRESSION zstd)` into a temporary file beside the target, then
 * renamed into place, so a reader (or a sync) never sees half a file.
 */
export async function copyToParquet(
  connection: DuckDBConnection,
  query: string,
  path: string,
  digest: string,
): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
  try {
    await connection.run(
      `COPY (${query}) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd, KV_METADATA {${SOURCE_DIGEST_KEY}: ${sqlString(digest)}})`,
    );
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}

/** The source digest a dataset file carries, or undefined when there is no such file (or it is not one of ours). */
export async function fileSourceDigest(connection: DuckDBConnection, path: string): Promise<string | undefined> {
  try {
    // DuckDB would block on a FIFO: only a regular file is opened.
    await (await openRegularFile(path)).close();
    const reader = await connection.runAndReadAll(
      `SELECT decode(value) AS digest FROM parquet_kv_metadata(${sqlString(path)}) WHERE decode(key) = ${sqlString(SOURCE_DIGEST_KEY)}`,
    );
    const digest = reader.getRowObjectsJson()[0]?.digest;
    return typeof digest === "string" ? digest : undefined;
  } catch {
    // missing, or not readable as Parquet (a damaged file is written again)
    return undefined;
  }
}

/** A file's size and sha256, read in a stream. */
export async function fileDigest(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const handle = await openRegularFile(path);
  for await (const chunk of handle.createReadStream()) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).byteLength;
  }
  return { bytes, sha256: hash.digest("hex") };
}
