import { promises as fs } from "node:fs";
import { join } from "node:path";
import { summarize, readRun, type RunManifest, type RunSummary } from "@harnessx/recorder";
import { runIdsIn } from "./resolve.js";

/** One line of `trace ls`. */
export interface RunListing {
  runId: string;
  agent: string;
  status: string;
  models: string[];
  startedAt: number;
  endedAt: number | null;
  durationMs: number | null;
  modelCalls: number;
  toolCalls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  events: number;
  dropped: number;
  error: string | null;
  /** The newest incident bundle exported for the run under `<store>/incidents/`, if any. */
  bundle: string | null;
}

async function bundlesByRun(storeDir: string): Promise<Map<string, string>> {
  const dir = join(storeDir, "incidents");
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".tar")).sort();
  const out = new Map<string, string>();
  // Bundle names are `<runId>-<UTC time>.tar`; sorted, the newest of a run comes last.
  for (const name of names) {
    const match = /^(.*)-\d{4}-\d{2}-\d{2}T[\d-]+Z\.tar$/.exec(name);
    if (match) out.set(decodeURIComponent(match[1]), join(dir, name));
  }
  return out;
}

/** The totals of a run: from run.json when it ended, else counted from its events (running or crashed runs). */
async function summaryOf(runDir: string, manifest: RunManifest): Promise<RunSummary> {
  if (manifest.summary && manifest.status !== "running") return manifest.summary;
  const { events } = await readRun(runDir).catch(() => ({ events: [] }));
  return summarize(events);
}

/** Every run of a store, newest first. Runs whose run.json is unreadable are skipped and counted. */
export async function listRuns(storeDir: string): Promise<{ runs: RunListing[]; unreadable: string[] }> {
  const bundles = await bundlesByRun(storeDir);
  const runs: RunListing[] = [];
  const unreadable: string[] = [];
  for (const { runId, dir } of await runIdsIn(storeDir)) {
    let manifest: RunManifest;
    try {
      manifest = JSON.parse(await fs.readFile(join(dir, "run.json"), "utf8")) as RunManifest;
    } catch {
      unreadable.push(runId);
      continue;
    }
    const summary = await summaryOf(dir, manifest);
    runs.push({
      runId: manifest.runId,
      agent: manifest.agent,
      status: manifest.status,
      models: manifest.models ?? [],
      startedAt: manifest.startedAt,
      endedAt: manifest.endedAt,
      durationMs: manifest.endedAt !== null && manifest.endedAt !== undefined ? manifest.endedAt - manifest.startedAt : null,
      modelCalls: summary.modelCalls,
      toolCalls: summary.toolCalls,
      errors: summary.errors,
      inputTokens: summary.inputTokens,
      outputTokens: summary.outputTokens,
      events: summary.events,
      dropped: summary.dropped,
      error: manifest.error?.message ?? null,
      bundle: bundles.get(manifest.runId) ?? null,
    });
  }
  runs.sort((a, b) => b.startedAt - a.startedAt || a.runId.localeCompare(b.runId));
  return { runs, unreadable };
}
