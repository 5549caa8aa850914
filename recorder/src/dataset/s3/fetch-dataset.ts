import { createHash } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { Readable } from "node:stream";
import { cacheDir } from "../../store/span-cache.js";
import { checkTarget } from "./check-target.js";
import { DATASET_MARKER, DATASET_TABLES, partitionDate } from "../layout.js";
import { parseDatasetMarker } from "../marker.js";
import { datasetFileOf } from "./dataset-files.js";
import { loadClientS3 } from "./aws-sdk.js";
import { listKeys } from "./list-keys.js";
import { connectS3, type S3Connection } from "./s3-client.js";
import type { S3ConnectionOptions } from "./s3-options.js";
import { describeTargetProblem, S3TargetError, targetProblemOf } from "./s3-errors.js";
import { keyOf, parseS3Target, type S3Target } from "./s3-target.js";

/** Options of `fetchDataset`. */
export interface FetchDatasetOptions {
  /** `s3://bucket/prefix` of a dataset, or a parsed target. */
  from: string | S3Target;
  /** Only runs started on or after this UTC day (milliseconds since the epoch): older partitions are not fetched. Default every partition. */
  since?: number;
  /** The local folder to mirror into. Default `<cache>/datasets/<digest of endpoint and URL>` (the cache of `HARNESSX_CACHE_DIR`), or a temp folder when caching is `off`. */
  into?: string;
  /** Endpoint, region, credentials; default the standard AWS chain. */
  connection?: S3ConnectionOptions;
  /** Downloads at once. Default 4. */
  concurrency?: number;
}

/** A local copy of a remote dataset's tables, ready for the local dataset reader. */
export interface FetchedDataset {
  /** The local dataset folder. */
  dir: string;
  /** True when `dir` is a temp folder (caching off) the caller should remove. */
  temporary: boolean;
  /** Table files downloaded now. */
  fetched: number;
  /** Table files already in the cache, unchanged remotely. */
  cached: number;
  /** Bytes downloaded. */
  bytes: number;
}

/** The default cache folder of a remote dataset. */
async function defaultInto(
  target: S3Target,
  endpoint: string | undefined,
): Promise<{ dir: string; temporary: boolean }> {
  const cache = cacheDir();
  if (!cache) return { dir: await mkdtemp(join(tmpdir(), "harnessx-dataset-")), temporary: true };
  const id = createHash("sha256")
    .update(`${endpoint ?? "aws"}\n${target.url}`)
    .digest("hex")
    .slice(0, 16);
  return { dir: join(cache, "datasets", id), temporary: false };
}

/**
 * Mirrors a remote dataset's table files (not the artifact objects: queries do not read them)
 * into a local folder: only partitions from `since` on are listed (S3 lists keys in order, so the
 * date filter is a `StartAfter`), and a file already cached with the remote size and time is not
 * downloaded again (dataset files are written once). Each download lands under a temp name and is
 * renamed, so a reader never sees half a file. Throws `S3TargetError` (`not_a_dataset`, and the
 * target problems of `uploadDataset`).
 */
export async function fetchDataset(options: FetchDatasetOptions): Promise<FetchedDataset> {
  const target = typeof options.from === "string" ? parseS3Target(options.from) : options.from;
  const connection = await connectS3(options.connection);
  try {
    const marker = await checkTarget(connection, target);
    if (marker === undefined)
      throw new S3TargetError(
        "not_a_dataset",
        target.url,
        `${target.url} is not a dataset: it has no ${DATASET_MARKER} (sync a store to it first: trace sync <store> ${target.url})`,
      );
    parseDatasetMarker(marker, target.url);
    const { dir, temporary } = options.into
      ? { dir: options.into, temporary: false }
      : await defaultInto(target, connection.endpoint);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(join(dir, DATASET_MARKER), marker);
    const wanted: Array<{ path: string; key: string; bytes: number; modified: Date }> = [];
    for (const table of DATASET_TABLES) {
      const tablePrefix = keyOf(target, `${table}/`);
      const startAfter = options.since === undefined ? undefined : `${tablePrefix}date=${partitionDate(options.since)}`;
      for await (const object of listKeys(connection, target.bucket, tablePrefix, startAfter)) {
        const path = object.key.slice(keyOf(target, "").length);
        if (datasetFileOf(path)?.runId !== undefined) wanted.push({ ...object, path });
      }
    }
    const result: FetchedDataset = { dir, temporary, fetched: 0, cached: 0, bytes: 0 };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < wanted.length) {
        const file = wanted[next++];
        const local = join(dir, ...file.path.split("/"));
        const stat = await fs.stat(local).catch(() => undefined);
        if (stat && stat.size === file.bytes && stat.mtimeMs === file.modified.getTime()) {
          result.cached++;
          continue;
        }
        await download(connection, target.bucket, file.key, local, file.modified);
        result.fetched++;
        result.bytes += file.bytes;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
    return result;
  } catch (error) {
    // The target failing mid-way (credentials expired, endpoint gone) is told as at the start.
    const problem = error instanceof S3TargetError ? undefined : targetProblemOf(error);
    throw problem
      ? new S3TargetError(problem, target.url, describeTargetProblem(problem, target.url, connection.endpoint, error), {
          cause: error,
        })
      : error;
  } finally {
    connection.client.destroy();
  }
}

/** One object to a local file: temp name, then rename; its time set to the object's, which is how the cache knows it later. */
async function download(
  connection: S3Connection,
  bucket: string,
  key: string,
  local: string,
  modified: Date,
): Promise<void> {
  const { GetObjectCommand } = await loadClientS3();
  await fs.mkdir(dirname(local), { recursive: true });
  const temp = `${local}.${process.pid}.part`;
  try {
    const object = await connection.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    await pipeline(object.Body as Readable, createWriteStream(temp));
    await fs.utimes(temp, modified, modified);
    await fs.rename(temp, local);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
