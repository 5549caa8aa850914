// Runs recorded into a store through the real recorder, and the catalog's view of them beside
// what their run.json files say: the catalog's tests compare the two.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { CatalogRun } from "../catalog/catalog-entry.js";
import { catalogRunOf } from "../catalog/catalog-entry.js";
import type { CatalogView } from "../catalog/read-catalog.js";
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

export function viewOf(read: CatalogView): CatalogView {
  assert.equal(read.snapshotProblem, undefined);
  return read;
}

/** The runs of a view, by folder, without the times their entries were written. */
export function runsOf(view: CatalogView): Record<string, CatalogRun | null> {
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
