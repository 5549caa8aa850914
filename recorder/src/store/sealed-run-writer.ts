import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { RecordedEvent, RunManifest } from "../format/event.js";
import { runDirOf, runManifestPathOf, segmentName, segmentsDirOf } from "../format/layout.js";
import { indexChildRun } from "./linked-runs.js";
import { publishRun } from "../catalog/publish-run.js";
import { writeAtomically, writeSealed } from "../recording/seal.js";
import { RollupTally } from "../format/run-rollup.js";

/** Options of `SealedRunWriter`. */
export interface SealedRunWriterOptions {
  /** Uncompressed bytes per segment. Default 16 MiB. */
  segmentBytes?: number;
}

/**
 * Writes a finished run into a store from events a program already holds (a scrubbed or
 * converted copy of a recorded run): the lines go to sealed segments with their sidecars, as the
 * recorder leaves them, so `exportIncident` copies their frames instead of compressing the run
 * again. A segment is compressed (off the main thread) while the next one fills: at most two
 * segments are in memory. `finish` writes run.json last, so the run is complete when it appears.
 */
export class SealedRunWriter {
  /** The directory the run is written to, `<storeDir>/runs/<runId>`. */
  readonly runDir: string;
  private readonly segmentBytes: number;
  private lines: string[] = [];
  private chars = 0;
  private index = 0;
  private sealing: Promise<unknown> = Promise.resolve();
  private ready: Promise<unknown>;
  private readonly rollup = new RollupTally();

  constructor(storeDir: string, runId: string, options: SealedRunWriterOptions = {}) {
    this.runDir = runDirOf(storeDir, runId);
    this.segmentBytes = options.segmentBytes ?? 16 * 1024 * 1024;
    this.ready = settledLater(fs.mkdir(segmentsDirOf(this.runDir), { recursive: true }));
  }

  /** Adds one event as the run's next line. */
  async append(event: RecordedEvent): Promise<void> {
    const line = JSON.stringify(event);
    this.rollup.add(event, Buffer.byteLength(line) + 1);
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.segmentBytes) await this.seal();
  }

  /** Seals what is left and writes run.json, its `rollup` (if any) replaced by the one of the events written. */
  async finish(manifest: RunManifest): Promise<void> {
    await this.seal();
    await this.sealing;
    const written: RunManifest = { ...manifest, rollup: this.rollup.toJSON() };
    await writeAtomically(runManifestPathOf(this.runDir), `${JSON.stringify(written, null, 2)}\n`);
    publishRun(this.runDir, written);
    if (manifest.parentRunId) indexChildRun(this.runDir, manifest.parentRunId);
  }

  private async seal(): Promise<void> {
    if (this.lines.length === 0) return;
    const content = Buffer.from(`${this.lines.join("\n")}\n`);
    this.lines = [];
    this.chars = 0;
    const path = join(segmentsDirOf(this.runDir), segmentName(++this.index));
    // The previous segment finishes first: one compression in flight, its errors surfacing here.
    await this.sealing;
    await this.ready;
    this.sealing = settledLater(writeSealed(path, content));
  }
}

/** The promise, marked handled: its failure surfaces where it is awaited, never as an unhandled rejection before. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
