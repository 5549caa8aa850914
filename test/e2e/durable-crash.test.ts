// Proof by crash: a durable, recorded run (a safe tool, a never tool, a call that needs approval)
// is killed with SIGKILL at every phase boundary in turn, then resumed in a new process. Each time
// it must finish as the uninterrupted run did, no never tool may run twice, and the recording
// must hold one coherent run.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultBlock } from "@harnessx/core";
import type { ConversationEntry } from "@harnessx/core/extension";
import { readRun, readRunManifest, runFolders } from "@harnessx/recorder";

const child = new URL("../support/durable-child.ts", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "hx-durable-crash-"));
after(() => rmSync(work, { recursive: true, force: true }));

interface Outcome {
  alreadyEnded?: true;
  status: string;
  text: string;
  boundaries: number;
  entries: ConversationEntry[];
}

interface ChildRun {
  runId: string | undefined;
  signal: NodeJS.Signals | null;
  outcome: Outcome | undefined;
  stderr: string;
}

function runChild(dir: string, mode: "start" | "resume", arg: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", child, join(dir, "journals"), join(dir, "store"), join(dir, "effects.log"), mode, arg],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on("error", reject);
    proc.on("exit", (_code, signal) => {
      const lines = out.trim().split("\n");
      const runId = lines.find((l) => l.startsWith("run "))?.slice(4);
      const last = lines[lines.length - 1];
      resolve({ runId, signal, outcome: last?.startsWith("{") ? (JSON.parse(last) as Outcome) : undefined, stderr });
    });
  });
}

function effects(dir: string): string[] {
  const path = join(dir, "effects.log");
  return existsSync(path) ? readFileSync(path, "utf8").trim().split("\n").filter(Boolean) : [];
}

/** The results the model saw, by call id. */
function resultsOf(entries: ConversationEntry[]): Map<string, ToolResultBlock> {
  const results = new Map<string, ToolResultBlock>();
  for (const entry of entries) {
    if (entry.role !== "user") continue;
    for (const block of entry.content) if (block.type === "tool_result") results.set(block.toolCallId, block);
  }
  return results;
}

/** The store holds the run once, ended, its events numbered without a gap or a repeat across the crash. */
async function assertOneCoherentRecording(dir: string, runId: string, point: string): Promise<void> {
  const folders = await runFolders(join(dir, "store"));
  assert.equal(folders.length, 1, `kill point ${point}: one recording`);
  const manifest = await readRunManifest(folders[0]!.dir);
  assert.equal(manifest.runId, runId);
  assert.equal(manifest.status, "completed", `kill point ${point}: the recording ended completed`);
  assert.equal(manifest.durable, true);
  const { events } = await readRun(folders[0]!.dir);
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
    `kill point ${point}: seq without gaps or repeats`,
  );
  assert.equal(manifest.summary!.events, events.length);
  const starts = events.filter((e) => e.kind === "agent_start");
  assert.ok(
    starts.some((e) => e.attrs?.restored === true),
    `kill point ${point}: the resumed part is in the same recording`,
  );
  assert.equal(events.filter((e) => e.kind === "agent_end").length, 1, `kill point ${point}: one end`);
}

describe("a durable run killed at every phase boundary resumes to the uninterrupted run's end", () => {
  test("30+ kill points: same conversation (or an interrupted never call, not run twice), one coherent recording", async () => {
    const reference = await runChild(join(work, "reference"), "start", "0");
    assert.ok(reference.outcome, `the uninterrupted run finished: ${reference.stderr}`);
    assert.equal(reference.outcome.status, "completed");
    const points = [...Array.from({ length: reference.outcome.boundaries }, (_, i) => String(i + 1)), "pay-effect"];
    assert.ok(points.length >= 30, `${points.length} kill points`);
    const referenceResults = resultsOf(reference.outcome.entries);
    let interrupted = 0;
    let ended = 0;
    const check = async (point: string) => {
      const dir = join(work, `kill-${point}`);
      const killed = await runChild(dir, "start", point);
      assert.equal(killed.signal, "SIGKILL", `kill point ${point}: the process was killed (${killed.stderr})`);
      assert.ok(killed.runId, `kill point ${point}: the run started`);
      const resumed = await runChild(dir, "resume", killed.runId);
      assert.ok(resumed.outcome, `kill point ${point}: the resumed run finished: ${resumed.stderr}`);
      if (resumed.outcome.alreadyEnded) {
        const journal = readFileSync(join(dir, "journals", `${killed.runId}.ndjson`), "utf8")
          .trim()
          .split("\n");
        assert.deepEqual(
          JSON.parse(journal[journal.length - 1]!).status,
          "completed",
          `kill point ${point}: killed after its end was committed`,
        );
        ended++;
        return;
      }
      assert.equal(resumed.outcome.status, "completed", `kill point ${point}`);
      assert.equal(resumed.outcome.text, "all done");
      const done = effects(dir);
      for (const name of ["pay", "delete"])
        assert.ok(
          done.filter((e) => e.startsWith(`${name} `)).length <= 1,
          `kill point ${point}: ${name} ran at most once: ${done.join(", ")}`,
        );
      // The conversation is the uninterrupted one, but for a never call the kill interrupted.
      const results = resultsOf(resumed.outcome.entries);
      const expected = structuredClone(reference.outcome!.entries);
      for (const [id, result] of results) {
        if (!/not safe to run twice/.test(result.content)) continue;
        interrupted++;
        assert.ok(id === "p1" || id === "d1", `kill point ${point}: only never calls are interrupted (${id})`);
        const tool = id === "p1" ? "pay" : "delete";
        assert.ok(done.filter((e) => e.startsWith(`${tool} `)).length <= 1);
        resultsOf(expected).get(id)!.content = result.content;
        resultsOf(expected).get(id)!.isError = true;
      }
      for (const [id, result] of results)
        if (!/not safe to run twice/.test(result.content))
          assert.deepEqual(result, referenceResults.get(id), `kill point ${point}: result of ${id}`);
      for (const id of ["p1", "d1"]) {
        if (!/not safe to run twice/.test(results.get(id)!.content))
          assert.equal(
            done.filter((e) => e.startsWith(id === "p1" ? "pay " : "delete ")).length,
            1,
            `kill point ${point}: ${id} ran exactly once`,
          );
      }
      await assertOneCoherentRecording(dir, killed.runId, point);
      assert.equal(
        JSON.stringify(
          resumed.outcome.entries.map((e) =>
            e.role === "user" ? e.content.map((b) => (b.type === "tool_result" ? b.toolCallId : b.type)) : e.role,
          ),
        ),
        JSON.stringify(
          expected.map((e) =>
            e.role === "user" ? e.content.map((b) => (b.type === "tool_result" ? b.toolCallId : b.type)) : e.role,
          ),
        ),
        `kill point ${point}: the same turns`,
      );
    };
    // Two at a time: the machine has two cores.
    for (let i = 0; i < points.length; i += 2) await Promise.all(points.slice(i, i + 2).map(check));
    assert.ok(interrupted > 0, "some kill points interrupted a never call");
    assert.ok(ended <= 1, "only a kill after the last commit finds the run ended");
  });
});
