import { ArtifactNotFoundError, ArtifactStore } from "@harnessx/artifacts";
import type { OpenedBundle } from "../bundle/open-bundle.js";
import { MEMBER, type BundleManifest } from "../bundle/manifest.js";
import type { RecordedEvent, RunManifest, RunSummary } from "../format/event.js";
import { iterateRunEvents, type IterateRunOptions, type RunIntegrity } from "../store/read-run.js";
import { openLineTables, type RecordingTables } from "../store/recording-tables.js";
import { assertEventsKept, readRunManifest } from "../store/run-manifest.js";
import { openSegmentTables } from "../store/segment-tables.js";
import { childRunsOf } from "../store/linked-runs.js";
import { runDirOf } from "../format/layout.js";
import { RecordingClosedError } from "./errors.js";
import type { RecordingDatabaseOptions } from "./recording.js";
import type { ResolvedSource } from "./source.js";

/** What a recording is read from, a store's run or a bundle: the few things that differ between them. */
export interface RecordingBacking {
  readonly source: ResolvedSource;
  readonly run: RunManifest;
  readonly bundle?: BundleManifest;
  /** Totals known without reading the events (a run that ended, a bundle), else undefined. */
  readonly knownSummary?: RunSummary;
  /** The events as stored, in order (inline payloads left out where `read.skipPayloads` says); what had to be cut or skipped is added to `integrity`. */
  events(
    integrity: RunIntegrity,
    read?: Pick<IterateRunOptions, "skipPayloads" | "readAhead">,
  ): AsyncIterable<RecordedEvent>;
  /** An artifact's uncompressed bytes, verified (`ArtifactNotFoundError` when absent). */
  artifactBytes(sha256: string): Promise<Buffer>;
  tables(options: RecordingDatabaseOptions): Promise<RecordingTables>;
  /** The runs this run's tool calls started (subagents): the store's runs that name it as parent, or the bundle's linked runs. */
  linked(): Promise<RecordingBacking[]>;
  /** Drops what it holds in memory. */
  release(): void;
}

/** A run of a store: its run.json checked, its segments read one at a time, artifacts from the store. */
export async function runBacking(source: Extract<ResolvedSource, { kind: "run" }>): Promise<RecordingBacking> {
  const run = await readRunManifest(source.runDir);
  const artifacts = new ArtifactStore(source.storeDir);
  return {
    source: { ...source, runId: run.runId },
    run,
    ...(run.summary && run.status !== "running" ? { knownSummary: run.summary } : {}),
    events(integrity, read) {
      assertEventsKept(run);
      return iterateRunEvents(source.runDir, { integrity, ...read });
    },
    artifactBytes: (sha256) => artifacts.get(sha256),
    async tables(options) {
      assertEventsKept(run);
      return openSegmentTables(source.storeDir, [source.runDir], options);
    },
    async linked() {
      const children = await childRunsOf(source.storeDir, run.runId);
      return Promise.all(
        children.map((child) =>
          runBacking({
            kind: "run",
            storeDir: source.storeDir,
            runDir: runDirOf(source.storeDir, child.runId),
            runId: child.runId,
          }),
        ),
      );
    },
    release() {},
  };
}

/** A bundle verified by `openBundle`: its events and artifacts are in memory. */
export function bundleBacking(opened: OpenedBundle): RecordingBacking {
  const { path, run, manifest } = opened;
  let bundle: OpenedBundle | undefined = opened;
  const held = (): OpenedBundle => {
    if (!bundle) throw new RecordingClosedError(path);
    return bundle;
  };
  const copies = manifest.spills?.copies ?? {};
  const inside = new Set(opened.artifacts);
  return {
    source: { kind: "bundle", path },
    run,
    bundle: manifest,
    knownSummary: manifest.run.summary,
    async *events(_integrity, read) {
      yield* held().eventsOneByOne(read?.skipPayloads);
    },
    async artifactBytes(sha256) {
      if (!inside.has(copies[sha256] ?? sha256)) {
        const error = new ArtifactNotFoundError(sha256, "unknown");
        error.message = `artifact ${sha256} is not in the bundle ${path} (missing from the store when it was exported)`;
        throw error;
      }
      return held().artifact(sha256);
    },
    tables(options) {
      const current = held();
      // The events name a spilled result by its original id; the bundle holds its redacted copy.
      const storedSizes = new Map<string, number>();
      for (const id of current.artifacts) storedSizes.set(id, current.member(MEMBER.artifact(id))?.byteLength ?? 0);
      for (const [id, copy] of Object.entries(copies))
        if (storedSizes.has(copy)) storedSizes.set(id, storedSizes.get(copy)!);
      return openLineTables(current.lines(), { runs: new Map([[run.runId, run]]), storedSizes }, options);
    },
    linked: async () => held().linked.map(bundleBacking),
    release() {
      bundle = undefined;
    },
  };
}
