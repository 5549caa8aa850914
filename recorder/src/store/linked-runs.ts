import { promises as fs } from "node:fs";
import { join } from "node:path";
import type { RunManifest } from "../format/event.js";
import { readRunManifest } from "./run-manifest.js";

/** A run another run started from one of its tool calls (a subagent's run), as its `run.json` links them. */
export interface LinkedRun {
  /** The child run's id. */
  runId: string;
  /** The parent's `execute_tool` span the child's run span hangs under. */
  parentSpanId?: string;
  /** When the child started (ms since the epoch): children are listed in this order. */
  startedAt: number;
}

/**
 * The runs of a store that name `runId` as their parent (`run.json`'s `parentRunId`), in start
 * order. Each run.json is read and checked; a folder that is not a readable run is passed over
 * (`trace ls --invalid` reports those).
 */
export async function childRunsOf(storeDir: string, runId: string): Promise<LinkedRun[]> {
  const names = await fs.readdir(join(storeDir, "runs")).catch(() => [] as string[]);
  const children: LinkedRun[] = [];
  for (const name of names) {
    const run: RunManifest | undefined = await readRunManifest(join(storeDir, "runs", name)).catch(() => undefined);
    if (run?.parentRunId !== runId || run.runId === runId) continue;
    children.push({ runId: run.runId, ...(run.parentSpanId ? { parentSpanId: run.parentSpanId } : {}), startedAt: run.startedAt });
  }
  return children.sort((a, b) => a.startedAt - b.startedAt || a.runId.localeCompare(b.runId));
}
