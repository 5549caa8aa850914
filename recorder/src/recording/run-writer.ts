import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  promises as fs,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { RunManifest } from "../format/event.js";
import { lockPathOf, runManifestPathOf, segmentIndexOf, segmentName, segmentsDirOf } from "../format/layout.js";
import { publishRun } from "../catalog/publish-run.js";
import { sealSegment, writeAllAtomically, writeSealed } from "./seal.js";
import { indexChildRun } from "../store/linked-runs.js";

/** When the active segment is sealed: whichever limit is reached first. */
export interface SegmentLimits {
  /** Plain bytes of the active segment. */
  maxBytes: number;
  /** Age of the active segment in milliseconds (checked when events arrive and on the flush timer). */
  maxAgeMs: number;
}

/**
 * The files of one run being recorded: `run.json`, `lock` and the segments. Appends are
 * synchronous (batched by the caller, never on the agent's path); sealing is asynchronous and
 * chained so segments seal in order.
 */
export class RunWriter {
  readonly segmentsDir: string;
  private fd: number | undefined;
  private segmentIndex = 0;
  private segmentBytes = 0;
  private segmentOpenedAt = 0;
  private sealing: Promise<void> = Promise.resolve();
  private sealError: unknown;
  /** A whole run being written off the agent's thread (see `writeWhole`), until it is on disk. */
  private whole: { lines: string; manifest: RunManifest } | undefined;
  /** The run is in its parent's entry of the store's `links/` index. */
  private linked = false;

  /** No I/O until the first write: the directory, lock and segment numbering come then. */
  constructor(
    readonly runDir: string,
    private readonly limits: SegmentLimits,
  ) {
    this.segmentsDir = segmentsDirOf(runDir);
  }

  private ensureOpen(): void {
    if (this.segmentIndex !== 0) return;
    mkdirSync(this.segmentsDir, { recursive: true });
    // A resumed run (or a run reopened after recovery) continues in a new segment: sealed ones stay sealed.
    const existing = readdirSync(this.segmentsDir)
      .map(segmentIndexOf)
      .filter((i): i is number => i !== undefined);
    writeFileSync(lockPathOf(this.runDir), `${process.pid}\n`);
    this.segmentIndex = existing.length ? Math.max(...existing) + 1 : 1;
  }

  /** True once anything of the run is on disk (its directory, lock and first segment). */
  get opened(): boolean {
    return this.segmentIndex !== 0;
  }

  /**
   * A run that started and ended before any of it was written: its lines become one sealed
   * segment straight from memory (no plain file written, read back and deleted), then
   * `run.json`, all off the agent's thread. Until that is done, `closeNow` can still write them.
   */
  async writeWhole(lines: string, manifest: RunManifest): Promise<void> {
    this.whole = { lines, manifest };
    await fs.mkdir(this.segmentsDir, { recursive: true });
    const manifestFile: [string, string] = [runManifestPathOf(this.runDir), manifestText(manifest)];
    if (lines.length > 0) await writeSealed(join(this.segmentsDir, segmentName(1)), Buffer.from(lines), [manifestFile]);
    else await writeAllAtomically([manifestFile]);
    publishRun(this.runDir, manifest);
    this.linkUnderParent(manifest);
    this.whole = undefined;
  }

  /** The manifest of a run directory, or undefined when it has none (yet). */
  static readManifest(runDir: string): RunManifest | undefined {
    const path = runManifestPathOf(runDir);
    if (!existsSync(path)) return undefined;
    return JSON.parse(readFileSync(path, "utf8")) as RunManifest;
  }

  writeManifest(manifest: RunManifest): void {
    this.ensureOpen();
    const path = runManifestPathOf(this.runDir);
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, manifestText(manifest));
    renameSync(tmp, path);
    publishRun(this.runDir, manifest);
    this.linkUnderParent(manifest);
  }

  /** Adds a child run to the store's index of its parent's children (`links/`): finding them then reads only theirs. */
  private linkUnderParent(manifest: RunManifest): void {
    if (!manifest.parentRunId || this.linked) return;
    indexChildRun(this.runDir, manifest.parentRunId);
    this.linked = true;
  }

  /** Appends complete NDJSON lines; seals the segment once it is over its size or age. */
  append(lines: string, now: number): void {
    if (this.sealError) throw this.sealError;
    this.ensureOpen();
    if (this.fd === undefined) this.openSegment(now);
    const bytes = Buffer.byteLength(lines);
    writeSync(this.fd!, lines);
    this.segmentBytes += bytes;
    if (this.segmentBytes >= this.limits.maxBytes) this.rotate();
  }

  /** Seals the active segment when it is older than the age limit. */
  tick(now: number): void {
    if (this.fd !== undefined && this.segmentBytes > 0 && now - this.segmentOpenedAt >= this.limits.maxAgeMs)
      this.rotate();
  }

  /** Seals what is open and waits for every seal; the lock goes when `releaseLock` is set. */
  async close(releaseLock: boolean): Promise<void> {
    this.rotate();
    await this.sealing;
    if (releaseLock) rmSync(lockPathOf(this.runDir), { force: true });
    if (this.sealError) throw this.sealError;
  }

  /** Synchronous last resort at process exit: closes the file, leaves sealing to `recover`. */
  closeNow(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const whole = this.whole;
    if (!whole) return;
    // The process is exiting before a whole run reached the disk: its lines stay plain (`recover` seals them).
    this.whole = undefined;
    mkdirSync(this.segmentsDir, { recursive: true });
    if (whole.lines.length > 0) writeFileSync(join(this.segmentsDir, segmentName(1)), whole.lines);
    this.segmentIndex = 2;
    this.writeManifest(whole.manifest);
  }

  releaseLockNow(): void {
    rmSync(lockPathOf(this.runDir), { force: true });
  }

  /** Resolves when the seals started so far are done. */
  settled(): Promise<void> {
    return this.sealing;
  }

  private openSegment(now: number): void {
    this.fd = openSync(join(this.segmentsDir, segmentName(this.segmentIndex)), "a");
    this.segmentBytes = 0;
    this.segmentOpenedAt = now;
  }

  private rotate(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    const path = join(this.segmentsDir, segmentName(this.segmentIndex));
    this.segmentIndex++;
    this.sealing = this.sealing.then(() =>
      sealSegment(path).then(
        () => undefined,
        (error: unknown) => {
          this.sealError ??= error;
        },
      ),
    );
  }
}

function manifestText(manifest: RunManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
