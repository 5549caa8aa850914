import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Redactor } from "@harnessx/core/extension";
import { ArtifactStore, writeFileAtomically } from "@harnessx/artifacts";
import type { RunManifest } from "../format/event.js";
import { artifactCopy } from "../store/artifact-copy.js";
import type { SegmentFile } from "../store/read-run.js";
import { isProcessAlive, lockHolder, reductionPending } from "../store/recover.js";
import { openSegmentTables } from "../store/segment-tables.js";
import { sqlString } from "../store/sql-literal.js";
import type { DatasetFile, DatasetObject, ExportedRun, SkippedRun } from "./export-types.js";
import {
  DATASET_TABLES,
  DATASET_VERSION,
  localPathOf,
  objectKey,
  partitionDate,
  tableFileKey,
  type DatasetTable,
} from "./layout.js";
import { copyToParquet, fileDigest, fileSourceDigest } from "./parquet-files.js";

/** A run of the store as read for export: its run.json (and its bytes) and segments. */
export interface RunToExport {
  runDir: string;
  manifest: RunManifest;
  manifestBytes: Buffer;
  segments: SegmentFile[];
}

/** Why the run cannot be exported yet, or undefined when it has ended and its recording is final. */
export async function notYetExportable(run: RunToExport): Promise<SkippedRun["reason"] | undefined> {
  const { manifest, runDir, segments } = run;
  if (manifest.endedAt === null || manifest.status === "running" || segments.some((s) => !s.sealed)) return "recording";
  const pid = await lockHolder(runDir);
  if (pid !== undefined && isProcessAlive(pid)) return "recording";
  if (await reductionPending(runDir, manifest)) return "retention_pending";
  return undefined;
}

/**
 * What a run's files are exported from: the dataset version, its run.json as stored and its
 * sealed segments' checksums. An ended run's recording does not change, so an export carrying
 * the same digest is the same export; a run changed since (reduced by retention, resumed) has a
 * new one and is written again.
 */
export function sourceDigest(run: RunToExport): string {
  const hash = createHash("sha256").update(`harnessx-dataset/${DATASET_VERSION}\n`).update(run.manifestBytes);
  for (const segment of run.segments) hash.update(`\n${segment.index}:${segment.info?.sha256 ?? ""}`);
  return hash.digest("hex");
}

/** The run's table files, in writing order (`runs` last); only `runs` for a run reduced to its summary. */
function tablesOf(manifest: RunManifest): readonly DatasetTable[] {
  return manifest.detail === "summary" ? ["runs"] : DATASET_TABLES;
}

/** Where a batch's rows are read from: the store tables, or copies of them made once for a batch of several runs. */
interface BatchSources {
  events: string;
  artifacts: string;
}

/** The rows of one run's table file (the store tables' columns; the artifact index adds where each artifact's bytes are). */
function tableQuery(table: DatasetTable, runId: string, from: BatchSources): string {
  const id = sqlString(runId);
  switch (table) {
    case "runs":
      return `SELECT * FROM runs WHERE run_id = ${id}`;
    case "events":
      return `SELECT * FROM ${from.events} WHERE run_id = ${id} ORDER BY seq`;
    case "spans":
      return `SELECT * FROM spans WHERE run_id = ${id} ORDER BY start_ts, span_id`;
    case "artifacts":
      return `SELECT a.*, o.object_sha256 FROM ${from.artifacts} a LEFT JOIN object_ids o USING (run_id, sha256) WHERE a.run_id = ${id} ORDER BY a.seq, a.sha256, a.kind`;
  }
}

/** The export of a run whose `runs` file already carries its source digest (nothing is written), else undefined. */
export async function exportedAlready(
  dataset: string,
  run: RunToExport,
  scratch: DuckDBConnection,
): Promise<ExportedRun | undefined> {
  const { manifest } = run;
  const date = partitionDate(manifest.startedAt);
  const pathOf = (table: DatasetTable) => localPathOf(dataset, tableFileKey(table, date, manifest.runId));
  if ((await fileSourceDigest(scratch, pathOf("runs"))) !== sourceDigest(run)) return undefined;
  const detail = manifest.detail === "summary" ? "summary" : "full";
  return {
    runId: manifest.runId,
    date,
    detail,
    written: false,
    files: await describeFiles(dataset, date, manifest),
    ...(await indexedObjects(scratch, dataset, pathOf("artifacts"), detail)),
  };
}

/**
 * Exports ended runs into the dataset (see `exportDataset`), the store tables opened once for
 * them all: per run, its artifacts' objects first, then its table files, `runs` last, each
 * written whole or not at all. Spilled results are redacted with `redactor`, the exporter's policy.
 */
export async function exportRuns(
  storeDir: string,
  dataset: string,
  runs: readonly RunToExport[],
  redactor: Redactor,
): Promise<ExportedRun[]> {
  const tables = await openSegmentTables(
    storeDir,
    runs.map((run) => run.runDir),
  );
  try {
    const { connection } = tables;
    let from: BatchSources = { events: "events", artifacts: "artifacts" };
    if (runs.length > 1) {
      // The events view reads every run's segments: read once for the batch, not once per run.
      await connection.run("CREATE TABLE batch_events AS SELECT * FROM events");
      await connection.run("CREATE TABLE batch_artifacts AS SELECT * FROM artifacts");
      from = { events: "batch_events", artifacts: "batch_artifacts" };
    }
    await connection.run("CREATE TABLE object_ids (run_id VARCHAR, sha256 VARCHAR, object_sha256 VARCHAR)");
    const exported: ExportedRun[] = [];
    for (const run of runs) {
      const { manifest } = run;
      const digest = sourceDigest(run);
      const date = partitionDate(manifest.startedAt);
      const detail = manifest.detail === "summary" ? "summary" : "full";
      const copies =
        detail === "full"
          ? await copyObjects(connection, from, { storeDir, dataset, redactor }, manifest)
          : { objects: [], missing: [] };
      for (const table of tablesOf(manifest)) {
        await copyToParquet(
          connection,
          tableQuery(table, manifest.runId, from),
          localPathOf(dataset, tableFileKey(table, date, manifest.runId)),
          digest,
        );
      }
      exported.push({
        runId: manifest.runId,
        date,
        detail,
        written: true,
        files: await describeFiles(dataset, date, manifest),
        objects: copies.objects,
        missingArtifacts: copies.missing,
      });
    }
    return exported;
  } finally {
    tables.close();
  }
}

/** The run's table files as they are in the dataset. */
async function describeFiles(dataset: string, date: string, manifest: RunManifest): Promise<DatasetFile[]> {
  const files: DatasetFile[] = [];
  for (const table of tablesOf(manifest)) {
    const key = tableFileKey(table, date, manifest.runId);
    const path = localPathOf(dataset, key);
    files.push({ table, key, path, ...(await fileDigest(path)) });
  }
  return files;
}

/** The objects (and missing artifacts) an exported run's artifact index names. */
async function indexedObjects(
  scratch: DuckDBConnection,
  dataset: string,
  artifactsFile: string,
  detail: ExportedRun["detail"],
): Promise<Pick<ExportedRun, "objects" | "missingArtifacts">> {
  if (detail === "summary") return { objects: [], missingArtifacts: [] };
  const reader = await scratch.runAndReadAll(
    `SELECT DISTINCT sha256, object_sha256 FROM read_parquet(${sqlString(artifactsFile)}) ORDER BY sha256`,
  );
  const objects: DatasetObject[] = [];
  const missingArtifacts: string[] = [];
  for (const row of reader.getRowObjectsJson()) {
    const id = row.object_sha256;
    if (typeof id !== "string") {
      missingArtifacts.push(String(row.sha256));
      continue;
    }
    const key = objectKey(id);
    const path = localPathOf(dataset, key);
    objects.push({ sha256: id, key, path, bytes: (await fs.stat(path)).size, written: false });
  }
  return { objects, missingArtifacts };
}

/** Artifacts copied at once. */
const OBJECT_COPIES = 4;

/**
 * Stores the run's artifacts as dataset objects and adds them to `object_ids` (the run, each
 * artifact's id in the store, and the object holding its bytes). Spilled results are raw tool output the recorder
 * never redacted: like a bundle, the dataset gets copies redacted by the exporter's policy.
 */
async function copyObjects(
  connection: DuckDBConnection,
  from: BatchSources,
  to: { storeDir: string; dataset: string; redactor: Redactor },
  manifest: RunManifest,
): Promise<{ objects: DatasetObject[]; missing: string[] }> {
  const { storeDir, dataset, redactor } = to;
  const reader = await connection.runAndReadAll(
    `SELECT sha256, bool_or(kind = 'extension') AS spilled FROM ${from.artifacts} WHERE run_id = ${sqlString(manifest.runId)} GROUP BY sha256 ORDER BY sha256`,
  );
  const wanted = reader.getRowObjectsJson().map((row) => ({ id: String(row.sha256), spilled: row.spilled === true }));
  const store = new ArtifactStore(storeDir);
  const objects: Array<DatasetObject | undefined> = new Array(wanted.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < wanted.length; i = next++) {
      const copy = await artifactCopy(store, wanted[i]!.id, wanted[i]!.spilled ? redactor : undefined);
      if (!copy) continue;
      const key = objectKey(copy.id);
      const path = localPathOf(dataset, key);
      const stored = await fs.stat(path).catch(() => undefined);
      if (!stored) {
        await fs.mkdir(localPathOf(dataset, key.slice(0, key.lastIndexOf("/"))), { recursive: true });
        await writeFileAtomically(path, copy.frame);
      }
      objects[i] = { sha256: copy.id, key, path, bytes: stored?.size ?? copy.frame.byteLength, written: !stored };
    }
  };
  await Promise.all(Array.from({ length: Math.min(OBJECT_COPIES, wanted.length) }, worker));
  const appender = await connection.createAppender("object_ids");
  const missing: string[] = [];
  for (const [i, { id }] of wanted.entries()) {
    const object = objects[i];
    if (!object) {
      missing.push(id);
      continue;
    }
    appender.appendVarchar(manifest.runId);
    appender.appendVarchar(id);
    appender.appendVarchar(object.sha256);
    appender.endRow();
  }
  appender.closeSync();
  // Two artifacts can share one object (spilled results whose redacted copies are the same): listed once.
  const unique = new Map(objects.filter((o): o is DatasetObject => o !== undefined).map((o) => [o.sha256, o]));
  return { objects: [...unique.values()], missing };
}
