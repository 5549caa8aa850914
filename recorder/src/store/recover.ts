import { promises as fs } from "node:fs";
import { join } from "node:path";
import { HarnessError } from "@harnessx/core";
import { readRegularFile } from "@harnessx/core/extension";
import { MAX_METADATA_FILE_BYTES } from "../format/read-limits.js";
import { EVENT_FORMAT_VERSION, type RecordedEvent, type RunManifest } from "../format/event.js";
import type { RunRollup } from "../format/rollup-types.js";
import { lockPathOf, runManifestPathOf } from "../format/layout.js";
import { summarize } from "../format/run-summary.js";
import { publishRun } from "../catalog/publish-run.js";
import { isProcessAlive } from "./live-process.js";

export { isProcessAlive } from "./live-process.js";
import { sealSegment, writeAtomically } from "../recording/seal.js";
import { ArtifactStore } from "@harnessx/artifacts";
import { readRun, type SegmentFile } from "./read-run.js";
import { referencedArtifacts } from "./references.js";
import { readRunManifest } from "./run-manifest.js";
import { retainReason } from "../format/retain-policy.js";
import { RollupTally } from "../format/run-rollup.js";
import { reduceToSummary } from "../recording/retention.js";
import { segmentsDirOf } from "../format/layout.js";

/** `recover` was asked to seal a run whose recording process is still alive: wait for it to end (or stop it), then recover. */
export class RunStillActiveError extends HarnessError {
  constructor(
    /** The run's directory. */
    readonly runDir: string,
    /** Id of the live process holding the run's lock. */
    readonly pid: number,
  ) {
    super("run_still_active", `run ${runDir} is still being recorded by live process ${pid}; recover only dead runs`);
  }
}

/** The pid in a run's lock file, or undefined when there is no (readable) lock. */
export async function lockHolder(runDir: string): Promise<number | undefined> {
  const text = await readRegularFile(lockPathOf(runDir), { maxBytes: MAX_METADATA_FILE_BYTES }).then(
    (bytes) => bytes.toString("utf8"),
    () => undefined,
  );
  const pid = text === undefined ? NaN : Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The live process other than this one that holds the run's lock (it is still recording the run there), or undefined. */
export async function liveLockHolder(runDir: string): Promise<number | undefined> {
  const pid = await lockHolder(runDir);
  return pid !== undefined && pid !== process.pid && isProcessAlive(pid) ? pid : undefined;
}

/** What `recover` did to a run. */
export interface RecoverResult {
  /** The run's id. */
  runId: string;
  /** False when the run was already finished and sealed, so nothing was changed. */
  recovered: boolean;
  /** The run's status afterwards: `crashed` for a run left `running`, else unchanged. */
  status: RunManifest["status"];
  /** Segments sealed by this recovery. */
  sealed: number;
  /** Events the run holds afterwards, the `recorder.recovered` event included. */
  events: number;
  /** Bytes of torn last lines cut from the plain segments. */
  tornBytes: number;
  /** True when the run's tail-retention policy (`retain` in its run.json) reduced it to its summary now. */
  reduced: boolean;
}

/** Options of `recover`. */
export interface RecoverOptions {
  /**
   * Apply the run's tail-retention policy now (default true). False when the run goes on (a
   * durable run resumed by the recorder): retention applies at its end, over all of it.
   */
  applyRetention?: boolean;
}

/**
 * Seals a dead run: the lock's process is gone (kill -9, power loss) or there is no lock but
 * plain segments remain. Appends `recorder.recovered`, seals every plain segment (torn last line
 * cut), marks a run that was `running` as `crashed`, writes its totals and removes the lock.
 * Then the tail-retention policy recorded with the run applies, as it would have at its end: a
 * run it does not keep is reduced to its summary, and so is a finished run whose reduction the
 * process did not live to do. A run that is finished and sealed is otherwise left alone (`recovered: false`).
 */
export async function recover(runDir: string, options: RecoverOptions = {}): Promise<RecoverResult> {
  const applyRetention = options.applyRetention ?? true;
  const live = await liveLockHolder(runDir);
  if (live !== undefined) throw new RunStillActiveError(runDir, live);
  const pid = await lockHolder(runDir);
  const manifest = await readRunManifest(runDir);
  // A run reduced to its summary has no events to read: only a reduction cut short is finished.
  const read = manifest.detail === "summary" ? { events: [], segments: [], tornBytes: 0 } : await readRun(runDir);
  const plain = read.segments.filter((s) => !s.sealed);
  if ((pid === undefined && plain.length === 0 && manifest.status !== "running") || manifest.detail === "summary") {
    const reduced = applyRetention && (await reductionPending(runDir, manifest));
    if (reduced) await reduceToSummary(runDir, manifest, new ArtifactStore(storeDirOf(runDir)));
    return {
      runId: manifest.runId,
      recovered: reduced,
      status: manifest.status,
      sealed: 0,
      events: reduced ? 0 : read.events.length,
      tornBytes: 0,
      reduced,
    };
  }
  const previousStatus = manifest.status;
  const last = read.events[read.events.length - 1];
  const recovered: RecordedEvent = {
    v: EVENT_FORMAT_VERSION,
    seq: (last?.seq ?? 0) + 1,
    ts: Date.now(),
    runId: manifest.runId,
    spanId: null,
    parentSpanId: manifest.runSpanId,
    kind: "recorder.recovered",
    attrs: {
      previousStatus,
      pid: pid ?? null,
      lastEventTs: last?.ts ?? null,
      tornBytes: read.tornBytes,
      recoveredBy: process.pid,
    },
  };
  // The recovery line goes into its own new segment: plain files may end in a torn line.
  const nextIndex = (read.segments[read.segments.length - 1]?.index ?? 0) + 1;
  const recoveryPath = join(runDir, "segments", `${String(nextIndex).padStart(6, "0")}.ndjson`);
  await fs.mkdir(join(runDir, "segments"), { recursive: true });
  await fs.writeFile(recoveryPath, `${JSON.stringify(recovered)}\n`);
  for (const segment of [...plain, { path: recoveryPath }]) await sealSegment(segment.path);
  await removeSupersededPlainFiles(read.segments);
  manifest.status = previousStatus === "running" ? "crashed" : previousStatus;
  manifest.endedAt ??= last?.ts ?? manifest.startedAt;
  manifest.summary = summarize([...read.events, recovered]);
  // A crashed run's readers scan its events: a rollup left from before a resume would be stale.
  delete manifest.rollup;
  manifest.artifacts = referencedArtifacts(read.events);
  const artifacts = new ArtifactStore(storeDirOf(runDir));
  for (const sha256 of manifest.artifacts) await artifacts.pin(sha256, `run:${manifest.runId}`).catch(() => undefined);
  // A run reduced to its summary keeps a rollup of every event it had, the recovery line included.
  const summarized: RunManifest | undefined = manifest.retain
    ? { ...manifest, rollup: rollupOf([...read.events, recovered]) }
    : undefined;
  const reduce = applyRetention && summarized !== undefined && retainReason(summarized) === undefined;
  await writeAtomically(runManifestPathOf(runDir), `${JSON.stringify(manifest, null, 2)}\n`);
  publishRun(runDir, manifest);
  await fs.rm(lockPathOf(runDir), { force: true });
  if (reduce) await reduceToSummary(runDir, summarized, artifacts);
  return {
    runId: manifest.runId,
    recovered: true,
    status: manifest.status,
    sealed: plain.length + 1,
    events: reduce ? 0 : read.events.length + 1,
    tornBytes: read.tornBytes,
    reduced: reduce,
  };
}

const storeDirOf = (runDir: string): string => join(runDir, "..", "..");

/** Each event's line as the recorder writes it, rolled up by `RollupTally`, as the recorder rolls it up. */
export function rollupOf(events: readonly RecordedEvent[]): RunRollup {
  const tally = new RollupTally();
  for (const event of events) tally.add(event, Buffer.byteLength(JSON.stringify(event)) + 1);
  return tally.toJSON();
}

/**
 * True for an ended run whose process died before its tail retention was done (`recover` then
 * does it): its policy does not keep it, or run.json says it was reduced but segments or pins remain.
 */
export async function reductionPending(runDir: string, run: RunManifest): Promise<boolean> {
  if (run.detail === "summary") return run.artifacts.length > 0 || (await exists(segmentsDirOf(runDir)));
  return run.retain !== undefined && retainReason(run) === undefined;
}

const exists = (path: string): Promise<boolean> =>
  fs.access(path).then(
    () => true,
    () => false,
  );

/**
 * A kill between a seal's rename and the plain file's removal leaves both: the verified seal is
 * what every reader takes, so the plain copy is only clutter (and would look unsealed).
 */
async function removeSupersededPlainFiles(segments: SegmentFile[]): Promise<void> {
  for (const segment of segments) {
    if (segment.sealed && segment.info) await fs.rm(segment.path.replace(/\.zst$/, ""), { force: true });
  }
}
