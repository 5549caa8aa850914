import type { RunManifest, RunSummary } from "../format/event.js";
import type { ModelsCost } from "../format/run-rollup.js";
import type { CatalogRun } from "../catalog/catalog-entry.js";

/** One run as `listRuns` shows it. */
export interface RunListing extends RunSummary {
  /** The run's id. */
  runId: string;
  /** The W3C trace id of the run's spans (`run.json`'s `traceId`): find a run from a backend's trace. Null in recordings made before it. */
  traceId: string | null;
  /** The run's directory in the store. */
  dir: string;
  /** Where the run stands, as `run.json` says. */
  status: RunManifest["status"];
  /** The agent's name. */
  agent: string;
  /** The framework that made the run (`ai-sdk`, `openai-agents`); null for harnessx's own runs. */
  framework: string | null;
  /** The session the run belongs to. */
  sessionId: string;
  /** Models the run used. */
  models: string[];
  /** Milliseconds since the epoch when the run started. */
  startedAt: number;
  /** Milliseconds since the epoch when the run ended; null while it is open. */
  endedAt: number | null;
  /** How long the run took, in milliseconds; null while it is open. */
  durationMs: number | null;
  /** Why the run failed; null when it did not fail with an error. */
  error: RunManifest["error"] | null;
  /** The run says `running` but its recording process is gone: run `recover`. */
  stale: boolean;
  /** The run is durable (`AgentOptions.durable`): its journal lets `agent.resume(runId)` continue it after a crash. */
  durable: boolean;
  /** A durable run its process did not finish (`crashed`, `incomplete`, or `running` with its process gone): `agent.resume(runId)` continues it, in this recording. */
  resumable: boolean;
  /** How many artifacts the run references. */
  artifacts: number;
  /** What its model calls cost, from the run's rollup; null until the run has ended (and in recordings made before rollups). */
  cost: ModelsCost | null;
  /** `"summary"` when tail retention (`retain`) deleted the run's events after it ended and only this summary remains, else `"full"`. */
  detail: "full" | "summary";
  /** The run's application metadata (`RunOptions.metadata`); empty when it has none. */
  metadata: Readonly<Record<string, string | number | boolean>>;
  /** The run's tags (`RunOptions.tags`); empty when it has none. */
  tags: readonly string[];
}

/** The one rule of a resumable run: durable, and left unfinished by its process (crashed, cut off at exit, or still `running` with the process gone). */
export function isResumable(run: Pick<RunManifest, "durable" | "status">, stale: boolean): boolean {
  return (
    run.durable === true &&
    (run.status === "crashed" || run.status === "incomplete" || (run.status === "running" && stale))
  );
}

/** A run's listing from what the catalog keeps of it (`CatalogRun`), with what only its folder can say. */
export function runListing(run: CatalogRun, dir: string, stale: boolean, summary: RunSummary): RunListing {
  return {
    ...summary,
    runId: run.runId,
    traceId: run.traceId ?? null,
    dir,
    status: run.status,
    agent: run.agent,
    framework: run.framework ?? null,
    sessionId: run.sessionId,
    models: run.models,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    durationMs: run.endedAt === null ? null : run.endedAt - run.startedAt,
    error: run.error ?? null,
    stale,
    durable: run.durable === true,
    resumable: isResumable(run, stale),
    artifacts: run.artifacts,
    cost: run.cost,
    detail: run.detail === "summary" ? "summary" : "full",
    metadata: run.metadata ?? {},
    tags: run.tags ?? [],
  };
}
