import { rmSync } from "node:fs";
import {
  fetchDataset,
  httpfsInstalled,
  openDatasetTables,
  openS3DatasetTables,
  type RecordingTables,
} from "@harnessx/recorder";
import type { CommandContext } from "../context.js";
import { formatBytes } from "../output/format.js";
import { explainingS3 } from "./s3-errors.js";

/**
 * The tables of a dataset in S3-compatible storage (`--dataset s3://bucket/prefix`): read in place
 * through DuckDB's httpfs where that extension is installed (`openS3DatasetTables`); else its table
 * files from `since`'s date partition on are mirrored into the local cache (`fetchDataset`: only
 * what changed since the last look is downloaded), then read by the same reader as a local
 * dataset folder, so the SQL and its answers are the same. With caching off
 * (`HARNESSX_CACHE_DIR=off`) the copy is a temp folder removed when the tables close.
 */
export async function openRemoteDataset(
  ctx: CommandContext,
  url: string,
  options: { readOnly: boolean; since?: number },
): Promise<RecordingTables> {
  // Where DuckDB's httpfs is installed, the files are read in place; it never is unless someone installed it.
  if (await httpfsInstalled()) return explainingS3(() => openS3DatasetTables({ from: url, ...options }));
  const progress = ctx.progress("fetch dataset", "steps");
  progress.total(1);
  const fetched = await explainingS3(() =>
    fetchDataset({ from: url, ...(options.since !== undefined ? { since: options.since } : {}) }),
  ).finally(() => progress.stop());
  ctx.note(
    `${url}: ${fetched.fetched} file(s) fetched (${formatBytes(fetched.bytes)}), ${fetched.cached} from the cache`,
  );
  const tables = await openDatasetTables(fetched.dir, options);
  if (!fetched.temporary) return tables;
  return {
    connection: tables.connection,
    query: (sql, params) => tables.query(sql, params),
    close() {
      tables.close();
      rmSync(fetched.dir, { recursive: true, force: true });
    },
  };
}
