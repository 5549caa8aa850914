import { promises as fs } from "node:fs";
import { join } from "node:path";
import { Redactor } from "@harnessx/core/extension";
import { memoryDatabase } from "../store/duckdb.js";
import { listSegments } from "../store/read-run.js";
import { readRunManifestFile } from "../store/run-manifest.js";
import { catalogedRunFolders, type RunFolder } from "../read/source.js";
import { DatasetError } from "./errors.js";
import type { DatasetExport, ExportDatasetRequest } from "./export-types.js";
import { prepareDataset } from "./marker.js";
import { exportedAlready, exportRuns, notYetExportable, type RunToExport } from "./run-export.js";

/**
 * Exports a store's ended runs to a dataset folder (docs/datasets.md): per run, one Parquet file
 * per table under `<table>/date=YYYY-MM-DD/<runId>.parquet` and its artifacts as
 * content-addressed `objects/`, each written to a temporary file and renamed. Runs still being
 * recorded (or waiting for tail retention) are skipped and exported by a later call. Idempotent:
 * every file of a run carries the digest of the recording it came from (`run.json` and the sealed
 * segments' checksums) in its Parquet metadata, and a run whose `runs` file (written last)
 * carries the current digest is not written again; an object already present is never rewritten.
 */
export async function exportDataset(request: ExportDatasetRequest): Promise<DatasetExport> {
  const folders = await foldersToExport(request);
  await prepareDataset(request.out);
  const result: DatasetExport = { dataset: request.out, runs: [], skipped: [] };
  const redactor = request.redactor ?? new Redactor();
  const instance = await memoryDatabase();
  const scratch = await instance.connect();
  try {
    let batch: RunToExport[] = [];
    let batchEvents = 0;
    const flush = async () => {
      if (batch.length) result.runs.push(...(await exportRuns(request.storeDir, request.out, batch, redactor)));
      batch = [];
      batchEvents = 0;
    };
    for (const folder of folders) {
      let read: RunToExport;
      try {
        const { manifest, bytes } = await readRunManifestFile(folder.dir);
        read = { runDir: folder.dir, manifest, manifestBytes: bytes, segments: await listSegments(folder.dir) };
      } catch (error) {
        result.skipped.push({ runId: folder.runId, reason: "invalid", problem: (error as Error).message });
        continue;
      }
      const reason = await notYetExportable(read);
      if (reason) {
        result.skipped.push({ runId: read.manifest.runId, reason });
        continue;
      }
      const already = await exportedAlready(request.out, read, scratch);
      if (already) {
        result.runs.push(already);
        continue;
      }
      const events = read.manifest.summary?.events ?? 0;
      if (batch.length >= BATCH_RUNS || (batch.length > 0 && batchEvents + events > BATCH_EVENTS)) await flush();
      batch.push(read);
      batchEvents += events;
    }
    await flush();
  } finally {
    scratch.closeSync();
    instance.closeSync();
  }
  return result;
}

/**
 * Runs exported with one opening of the store tables, and the events they may hold together: a
 * batch's events are copied into memory once, so the events of many small runs are read once
 * rather than once per run, and a big run goes alone.
 */
const BATCH_RUNS = 32;
const BATCH_EVENTS = 100_000;

/** The store's run folders the request names (all by default): `DatasetError` for a missing store or an unknown run. */
async function foldersToExport(request: ExportDatasetRequest): Promise<RunFolder[]> {
  const stat = await fs.stat(join(request.storeDir, "runs")).catch(() => undefined);
  if (!stat?.isDirectory())
    throw new DatasetError(
      "no_store",
      request.storeDir,
      `${request.storeDir} is not a recording store (no runs/ folder)`,
    );
  const folders = (await catalogedRunFolders(request.storeDir)).sort((a, b) => a.runId.localeCompare(b.runId));
  if (!request.runIds) return folders;
  const byId = new Map(folders.map((f) => [f.runId, f]));
  return request.runIds.map((runId) => {
    const folder = byId.get(runId);
    if (!folder)
      throw new DatasetError("unknown_run", runId, `the store ${request.storeDir} has no run ${JSON.stringify(runId)}`);
    return folder;
  });
}
