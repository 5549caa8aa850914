import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { ArtifactStore } from "@harnessx/artifacts";
import { readRegularFile } from "@harnessx/core/extension";
import { MAX_RUN_MANIFEST_BYTES } from "../format/read-limits.js";
import type { RunManifest } from "../format/event.js";
import { lockPathOf, runDirOf, runManifestPathOf, segmentsDirOf } from "../format/layout.js";
import { retainReason } from "../format/retain-policy.js";
import type { ResolvedRecorderOptions } from "./options.js";
import { forgetRun, publishRun } from "../catalog/publish-run.js";
import { writeAtomically } from "./seal.js";

interface SealedFile {
  runDir: string;
  path: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * Deletes sealed segments older than `maxAgeMs`, then the oldest until the store's sealed
 * segments fit in `maxBytes`. A run left without segments (and not running) is removed whole,
 * and the artifacts it pinned are released and deleted when no other holder keeps them.
 */
export async function enforceRetention(
  root: string,
  maxBytes: number,
  maxAgeMs: number,
  artifacts: ArtifactStore,
): Promise<number> {
  if (!Number.isFinite(maxBytes) && !Number.isFinite(maxAgeMs)) return 0;
  const sealed = await listSealed(join(root, "runs"));
  sealed.sort((a, b) => a.mtimeMs - b.mtimeMs);
  let total = sealed.reduce((sum, file) => sum + file.bytes, 0);
  const now = Date.now();
  const touched = new Set<string>();
  let deleted = 0;
  for (const file of sealed) {
    if (now - file.mtimeMs <= maxAgeMs && total <= maxBytes) break;
    await fs.rm(file.path, { force: true });
    await fs.rm(`${file.path}.sha256`, { force: true });
    total -= file.bytes;
    touched.add(file.runDir);
    deleted++;
  }
  for (const runDir of touched) await removeIfEmpty(runDir, artifacts);
  return deleted;
}

async function listSealed(runsDir: string): Promise<SealedFile[]> {
  const out: SealedFile[] = [];
  for (const name of await fs.readdir(runsDir).catch(() => [] as string[])) {
    const runDir = join(runsDir, name);
    const segments = segmentsDirOf(runDir);
    for (const file of await fs.readdir(segments).catch(() => [] as string[])) {
      if (!file.endsWith(".ndjson.zst")) continue;
      const stat = await fs.stat(join(segments, file)).catch(() => undefined);
      if (stat) out.push({ runDir, path: join(segments, file), bytes: stat.size, mtimeMs: stat.mtimeMs });
    }
  }
  return out;
}

async function removeIfEmpty(runDir: string, artifacts: ArtifactStore): Promise<void> {
  const left = await fs.readdir(segmentsDirOf(runDir)).catch(() => [] as string[]);
  if (left.some((name) => name.includes(".ndjson"))) return;
  if (
    await fs.access(lockPathOf(runDir)).then(
      () => true,
      () => false,
    )
  )
    return;
  const manifest = await readRegularFile(runManifestPathOf(runDir), { maxBytes: MAX_RUN_MANIFEST_BYTES })
    .then((bytes) => JSON.parse(bytes.toString("utf8")) as RunManifest)
    .catch(() => undefined);
  await fs.rm(runDir, { recursive: true, force: true });
  forgetRun(runDir);
  if (manifest) await releaseArtifacts(manifest, artifacts);
}

/** Unpins what the run pinned and deletes each artifact no other holder keeps. */
async function releaseArtifacts(
  run: Pick<RunManifest, "runId" | "artifacts">,
  artifacts: ArtifactStore,
): Promise<void> {
  for (const sha256 of run.artifacts ?? []) {
    await artifacts.unpin(sha256, `run:${run.runId}`).catch(() => undefined);
    await artifacts.deleteIfUnpinned(sha256).catch(() => undefined);
  }
}

/**
 * Tail retention, once a run has ended and its run.json (with its rollup) is written: a run its
 * policy does not keep (`retainReason`) is reduced to its summary. Then the store's size and age limits apply.
 */
export async function retainAfterRun(
  run: RunManifest,
  options: Pick<ResolvedRecorderOptions, "dir" | "maxBytes" | "maxAge">,
  artifacts: ArtifactStore,
): Promise<void> {
  if (retainReason(run) === undefined) await reduceToSummary(runDirOf(options.dir, run.runId), run, artifacts);
  await enforceRetention(options.dir, options.maxBytes, options.maxAge, artifacts);
}

/**
 * Keeps only a run's summary: run.json says so first (`detail: "summary"`), then the segments
 * go and the artifacts the run pinned are released, then run.json lists none. Every step can be
 * repeated, so `recover` finishes a reduction a crash cut short by calling this again.
 */
export async function reduceToSummary(
  runDir: string,
  run: RunManifest,
  artifacts: ArtifactStore,
): Promise<RunManifest> {
  const reduced: RunManifest = { ...run, detail: "summary", reducedBy: "retain" };
  if (run.detail !== "summary") await writeManifest(runDir, reduced);
  await fs.rm(segmentsDirOf(runDir), { recursive: true, force: true });
  await releaseArtifacts(run, artifacts);
  reduced.artifacts = [];
  await writeManifest(runDir, reduced);
  return reduced;
}

async function writeManifest(runDir: string, run: RunManifest): Promise<void> {
  await writeAtomically(runManifestPathOf(runDir), `${JSON.stringify(run, null, 2)}\n`);
  publishRun(runDir, run);
}
