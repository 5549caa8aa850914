import { ArtifactStore } from "@harnessx/artifacts";
import { openBundle, readRun, readRunManifest, summarize, type BadLine, type BundleManifest, type RecordedEvent, type RunManifest, type RunSummary } from "@harnessx/recorder";
import type { Target } from "./resolve.js";

/** A run read whole, from the store or from a verified bundle. */
export interface LoadedRun {
  target: Target;
  run: RunManifest;
  /** The bundle's manifest when the run came from a bundle. */
  bundle?: BundleManifest;
  events: RecordedEvent[];
  /** Totals: from run.json when the run ended, else computed from the events. */
  summary: RunSummary;
  /** Bytes cut from a torn last line (a writer killed mid-line); 0 for bundles. */
  tornBytes: number;
  /** Lines of the store's segments that were not events, skipped (bundles with any are refused). */
  badLines: number;
  firstBadLine?: BadLine & { segment: string };
  /** An event's payload: inline, or its artifact read and parsed on demand. */
  payloadOf(event: RecordedEvent): Promise<unknown>;
  /** An artifact's uncompressed bytes (verified against its sha256). */
  artifactBytes(sha256: string): Promise<Buffer>;
}

/** Reads a run and its events through the recorder (segments verified, torn lines cut; bundles verified whole). */
export async function loadRun(target: Target): Promise<LoadedRun> {
  if (target.kind === "bundle") {
    const bundle = await openBundle(target.path);
    const read = async (sha256: string) => bundle.artifact(sha256);
    return {
      target,
      run: bundle.run,
      bundle: bundle.manifest,
      events: bundle.events,
      summary: bundle.manifest.run.summary ?? summarize(bundle.events),
      tornBytes: 0,
      badLines: 0,
      payloadOf: (event) => payloadOf(event, read),
      artifactBytes: read,
    };
  }
  const run = await readRunManifest(target.runDir);
  const read = await readRun(target.runDir);
  const artifacts = new ArtifactStore(target.storeDir);
  return {
    target,
    run,
    events: read.events,
    summary: run.summary && run.status !== "running" ? run.summary : summarize(read.events),
    tornBytes: read.tornBytes,
    badLines: read.badLines,
    ...(read.firstBadLine ? { firstBadLine: read.firstBadLine } : {}),
    payloadOf: (event) => payloadOf(event, (sha256) => artifacts.get(sha256)),
    artifactBytes: (sha256) => artifacts.get(sha256),
  };
}

async function payloadOf(event: RecordedEvent, read: (sha256: string) => Promise<Buffer>): Promise<unknown> {
  if (event.payloadRef === undefined) return event.payload;
  const bytes = await read(event.payloadRef.sha256);
  const text = bytes.toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The run's events with every stored-aside payload read back in place (what the converters need). */
export async function eventsWithPayloads(loaded: LoadedRun, onEvent?: () => void): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (const event of loaded.events) {
    if (event.payloadRef === undefined) out.push(event);
    else {
      const { payloadRef: _ref, ...rest } = event;
      out.push({ ...rest, payload: await loaded.payloadOf(event) });
    }
    onEvent?.();
  }
  return out;
}
