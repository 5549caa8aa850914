import { mkdirSync, promises as fs, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { RunManifest } from "../format/event.js";
import { readRunManifest } from "./run-manifest.js";
import { linksDirOf } from "../format/layout.js";

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
 * order. The store's `links/<runId>/` index says which runs to read (a child's recorder adds it
 * there as it starts), so the cost is the parent's children, not the store's runs; each one's
 * run.json is read and must name this parent (a stale or planted entry is passed over).
 */
export async function childRunsOf(storeDir: string, runId: string): Promise<LinkedRun[]> {
  const names = await fs.readdir(linksDirOf(storeDir, runId)).catch(() => [] as string[]);
  const children: LinkedRun[] = [];
  for (const name of names) {
    const run: RunManifest | undefined = await readRunManifest(join(storeDir, "runs", name)).catch(() => undefined);
    if (run?.parentRunId !== runId || run.runId === runId) continue;
    children.push({
      runId: run.runId,
      ...(run.parentSpanId ? { parentSpanId: run.parentSpanId } : {}),
      startedAt: run.startedAt,
    });
  }
  return children.sort((a, b) => a.startedAt - b.startedAt || a.runId.localeCompare(b.runId));
}

/** Adds a child run (its folder `runDir`) to its store's index of `parentRunId`'s children, which `childRunsOf` reads. */
export function indexChildRun(runDir: string, parentRunId: string): void {
  const links = linksDirOf(dirname(dirname(runDir)), parentRunId);
  mkdirSync(links, { recursive: true });
  writeFileSync(join(links, basename(runDir)), "");
}
