// Runs written byte by byte, for tests of damage a recorder never writes on purpose (invalid
// UTF-8, torn lines, garbage): the readers must cope with whatever a crash or a disk left.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedEvent, RunManifest } from "../format/event.js";

/** A well-formed event line (with its newline) of run `runId`. */
export function eventLine(runId: string, seq: number, kind: string, attrs: Record<string, unknown> = {}): string {
  const event: RecordedEvent = {
    v: 1,
    seq,
    ts: 1_700_000_000_000 + seq,
    runId,
    spanId: kind === "agent_start" ? "span_run" : null,
    parentSpanId: kind === "agent_start" ? null : "span_run",
    kind,
    attrs,
  };
  return `${JSON.stringify(event)}\n`;
}

/** A `run.json` as a recorder writes it when a run starts. */
export function runManifest(runId: string, overrides: Partial<RunManifest> = {}): RunManifest {
  return {
    format: "harnessx.run",
    v: 1,
    runId,
    runSpanId: "span_run",
    agent: "hand-made",
    sessionId: "session_1",
    models: ["m"],
    status: "running",
    startedAt: 1_700_000_000_000,
    endedAt: null,
    producer: { recorder: "0", core: "0", node: process.version },
    pid: 0,
    hostname: "test",
    config: {},
    artifacts: [],
    ...overrides,
  };
}

/** Writes `<store>/runs/<runId>/` with run.json and plain segments holding these exact bytes; returns the run dir. */
export function writeHandMadeRun(
  store: string,
  runId: string,
  segments: Array<Buffer | string>,
  manifest: RunManifest = runManifest(runId),
): string {
  const runDir = join(store, "runs", runId);
  mkdirSync(join(runDir, "segments"), { recursive: true });
  writeFileSync(join(runDir, "run.json"), JSON.stringify(manifest, null, 2));
  for (const [i, bytes] of segments.entries())
    writeFileSync(join(runDir, "segments", `${String(i + 1).padStart(6, "0")}.ndjson`), bytes);
  return runDir;
}
