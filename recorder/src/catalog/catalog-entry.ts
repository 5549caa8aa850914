import type { RunManifest } from "../format/event.js";
import { costOfModels, type ModelsCost } from "../format/run-rollup.js";
import { arrayOf, count, finite, is, literal, nonEmpty, nullable, object, string, boolean } from "../format/schema.js";
import { isRunFolderName } from "../format/layout.js";
import { RUN_ERROR, RUN_FIELDS, RUN_METADATA, SUMMARY } from "../format/validate.js";

/**
 * What the catalog keeps of a run: the fields of its `run.json` that listing, run references and
 * the `runs` table read, under the manifest's own names, and the cost of its rollup. Derived
 * from the manifest by `catalogRunOf` each time the recorder writes one, never edited apart.
 */
export interface CatalogRun
  extends Pick<
    RunManifest,
    | "runId"
    | "traceId"
    | "parentRunId"
    | "agent"
    | "framework"
    | "sessionId"
    | "durable"
    | "models"
    | "status"
    | "startedAt"
    | "endedAt"
    | "service"
    | "provider"
    | "error"
    | "summary"
    | "detail"
    | "metadata"
    | "tags"
  > {
  /** Id of the process recording the run; absent in recordings older than it. */
  pid?: number;
  /** Host the run was recorded on; absent in recordings older than it. */
  hostname?: string;
  /** How many artifacts the run references. */
  artifacts: number;
  /** What its model calls cost, from the rollup of an ended run; null before. */
  cost: ModelsCost | null;
  /** Version of `@harnessx/recorder` that wrote the run. */
  recorder: string;
}

/** One line of the catalog: a run's state when its `run.json` was written, or that its folder was deleted. */
export interface CatalogEntry {
  /** The run's folder under `runs/` (its id, percent-encoded when unusual): what entries are keyed by. */
  folder: string;
  /**
   * When the state was written (ms since the epoch; for a rebuilt entry, its `run.json`'s mtime).
   * Of a folder's entries the latest wins, whatever order the files are read in.
   */
  writtenAt: number;
  /** The run, or null once its folder was deleted (size or age retention) or when it is not a readable run. */
  run: CatalogRun | null;
  /** For a folder that is not a readable run (found by a rebuild): what is wrong with it. */
  problem?: string;
}

/** The catalog's view of a manifest, as written now. */
export function catalogRunOf(manifest: RunManifest): CatalogRun {
  const run: CatalogRun = {
    runId: manifest.runId,
    agent: manifest.agent,
    sessionId: manifest.sessionId,
    models: manifest.models,
    status: manifest.status,
    startedAt: manifest.startedAt,
    endedAt: manifest.endedAt,
    artifacts: manifest.artifacts?.length ?? 0,
    cost: manifest.rollup ? costOfModels(Object.values(manifest.rollup.models)) : null,
    recorder: manifest.producer?.recorder ?? "unknown",
  };
  // Optional fields stay absent rather than undefined, so an entry's JSON holds only what is set.
  for (const key of OPTIONAL_FIELDS) if (manifest[key] !== undefined) Object.assign(run, { [key]: manifest[key] });
  return run;
}

const OPTIONAL_FIELDS = [
  "pid",
  "hostname",
  "traceId",
  "parentRunId",
  "framework",
  "durable",
  "service",
  "provider",
  "error",
  "summary",
  "detail",
  "metadata",
  "tags",
] as const satisfies readonly (keyof RunManifest & keyof CatalogRun)[];

/**
 * The entry a catalog line holds, or undefined when it is not one. The catalog is a file like
 * any other: a crash tears a line, a hand or an attacker may write one, so it is checked against
 * its shape (`CATALOG_ENTRY_SCHEMA`) before a field is trusted.
 */
export function catalogEntryFrom(value: unknown): CatalogEntry | undefined {
  return CATALOG_ENTRY_SCHEMA(value, "") === undefined ? (value as CatalogEntry) : undefined;
}

/** A line of the run catalog (`CatalogEntry`): a run's state, or `run: null` once its folder was deleted. */
export const CATALOG_ENTRY_SCHEMA = object(
  {
    folder: is(isRunFolderName, "one folder's name (no separator, not . or ..)"),
    writtenAt: finite,
    run: nullable(
      object(
        {
          ...RUN_FIELDS,
          artifacts: count,
          cost: nullable(object({ usd: nullable(finite), unpricedCalls: count })),
          recorder: string,
        },
        {
          pid: count,
          hostname: string,
          traceId: string,
          parentRunId: nonEmpty,
          framework: string,
          durable: boolean,
          service: string,
          provider: string,
          error: nullable(RUN_ERROR),
          summary: SUMMARY,
          detail: literal("summary"),
          metadata: RUN_METADATA,
          tags: arrayOf(string),
        },
      ),
    ),
  },
  { problem: string },
);
