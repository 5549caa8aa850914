// Runs recorded into a store through the real recorder, and the catalog's view of them beside
// what their run.json files say: the catalog's tests compare the two.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { catalogRunOf, type CatalogEntry, type CatalogRun } from "../catalog/catalog-entry.js";
import { openCatalog } from "../catalog/open-catalog.js";
import { allEntries, readCatalog } from "../catalog/read-catalog.js";
import { FlightRecorderExtension } from "../recording/flight-recorder.js";
import { readRunManifest } from "../store/run-manifest.js";
import { scriptedAgent } from "./agents.js";

/** Records `count` one-call runs into `dir` through the real recorder; their ids, oldest first. */
export async function record(
  dir: string,
  count: number,
  extra: Partial<ConstructorParameters<typeof FlightRecorderExtension>[0]> = {},
) {
  const steps = Array.from({ length: count }, (_, i) =>
    i === 5 ? { error: new Error(`provider down ${i}`) } : { text: "done", usage: { inputTokens: 4, outputTokens: 2 } },
  );
  const agent = scriptedAgent(steps, [new FlightRecorderExtension({ dir, ...extra })], "cataloged");
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await agent.run(`run ${i}`)).runId);
  await agent.close();
  return ids;
}

/** The whole catalog as read: every entry, the snapshot's lines included. */
export interface WholeCatalog {
  entries: Map<string, CatalogEntry>;
  skippedLines: number;
  snapshotProblem?: string;
}

/** Reads the catalog, its snapshot's lines whole. */
export async function readWhole(dir: string): Promise<WholeCatalog> {
  const view = await readCatalog(dir);
  const entries = await allEntries(view);
  return {
    entries,
    skippedLines: view.skippedLines,
    ...(view.snapshotProblem ? { snapshotProblem: view.snapshotProblem } : {}),
  };
}

/** Opens the catalog as a listing does (level with the folders): every entry and the notes. */
export async function openWhole(dir: string): Promise<{ entries: Map<string, CatalogEntry>; notes: string[] }> {
  const opened = await openCatalog(dir);
  assert.ok(opened, `${dir} is a store`);
  const entries = await allEntries(opened.view);
  for (const folder of opened.gone) entries.delete(folder);
  return { entries, notes: opened.notes };
}

/** The catalog read whole, checked to have its snapshot. */
export async function readComplete(dir: string): Promise<WholeCatalog> {
  const read = await readWhole(dir);
  assert.equal(read.snapshotProblem, undefined);
  return read;
}

/** The runs of a view, by folder, without the times their entries were written. */
export function runsOf(view: { entries: Map<string, CatalogEntry> }): Record<string, CatalogRun | null> {
  return Object.fromEntries([...view.entries].sort(([a], [b]) => a.localeCompare(b)).map(([f, e]) => [f, e.run]));
}

/** What the runs' own run.json files say, as the catalog keeps it (folders without one left out). */
export async function fromManifests(dir: string): Promise<Record<string, CatalogRun>> {
  const out: Record<string, CatalogRun> = {};
  for (const folder of readdirSync(join(dir, "runs")).sort()) {
    const manifest = await readRunManifest(join(dir, "runs", folder)).catch(() => undefined);
    if (manifest) out[folder] = catalogRunOf(manifest);
  }
  return out;
}
