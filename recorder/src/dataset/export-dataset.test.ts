import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { ArtifactStore, zstdDecompress } from "@harnessx/artifacts";
import { DatasetError, exportDataset, FlightRecorderExtension, objectKey, type DatasetExport } from "../index.js";
import { echoScript, recordRunWithArtifact, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

/** Records one run of `calls` echo calls into `store`; returns its id. */
async function recordEchoRun(store: string, calls: number, name = "echoer"): Promise<string> {
  const agent = scriptedAgent(echoScript(calls), [new FlightRecorderExtension({ dir: store })], name);
  const result = await agent.run("go");
  await agent.close();
  return result.runId;
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
        .sort()
    : [];

const runOf = (result: DatasetExport, runId: string) => result.runs.find((r) => r.runId === runId)!;

describe("exportDataset writes the documented layout for ended runs", () => {
  test("a marker, one Parquet file per table and run under its start date, and the artifacts as content-addressed objects", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      const out = join(dir, "dataset");
      const echo = await recordEchoRun(store, 2);
      const spilled = await recordRunWithArtifact(store);
      const result = await exportDataset({ storeDir: store, out });
      assert.deepEqual(JSON.parse(readFileSync(join(out, "harnessx-dataset.json"), "utf8")), {
        format: "harnessx-dataset",
        version: 1,
      });
      assert.deepEqual(result.skipped, []);
      assert.deepEqual(result.runs.map((r) => r.runId).sort(), [echo, spilled.runId].sort());
      for (const run of result.runs) {
        assert.match(run.date, /^\d{4}-\d{2}-\d{2}$/);
        assert.deepEqual(
          run.files.map((f) => f.key),
          ["events", "spans", "artifacts", "runs"].map((t) => `${t}/date=${run.date}/${run.runId}.parquet`),
        );
        for (const file of run.files) {
          assert.equal(statSync(file.path).size, file.bytes);
          assert.equal(readFileSync(file.path).subarray(0, 4).toString(), "PAR1", `${file.key} is Parquet`);
        }
        assert.equal(run.written, true);
      }
      const withArtifacts = runOf(result, spilled.runId);
      assert.ok(
        withArtifacts.objects.some((o) => o.sha256 === spilled.sha256),
        "the spilled result is an object",
      );
      for (const object of withArtifacts.objects) {
        assert.equal(object.key, objectKey(object.sha256));
        assert.deepEqual(
          readFileSync(object.path),
          await new ArtifactStore(store).getCompressed(object.sha256),
          "the store's zstd frame, as is",
        );
      }
      assert.deepEqual(withArtifacts.missingArtifacts, []);
      assert.ok(!filesUnder(out).some((f) => f.includes(".tmp-")), "no temporary file is left");
    } finally {
      cleanup();
    }
  });

  test("exporting again writes nothing: each run's files carry the digest of the recording they came from", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      const out = join(dir, "dataset");
      await recordEchoRun(store, 1);
      await recordRunWithArtifact(store);
      const first = await exportDataset({ storeDir: store, out });
      const before = new Map(filesUnder(out).map((f) => [f, statSync(f).mtimeMs]));
      const again = await exportDataset({ storeDir: store, out });
      assert.ok(again.runs.every((r) => !r.written && r.objects.every((o) => !o.written)));
      assert.deepEqual(
        new Map(filesUnder(out).map((f) => [f, statSync(f).mtimeMs])),
        before,
        "no file was rewritten or added",
      );
      assert.deepEqual(
        again.runs.map((r) => ({ runId: r.runId, files: r.files, objects: r.objects.map((o) => o.sha256) })),
        first.runs.map((r) => ({ runId: r.runId, files: r.files, objects: r.objects.map((o) => o.sha256) })),
        "the same files and objects are reported",
      );
      const newer = await recordEchoRun(store, 1);
      const third = await exportDataset({ storeDir: store, out });
      assert.deepEqual(
        third.runs.filter((r) => r.written).map((r) => r.runId),
        [newer],
        "only the new run is written",
      );
    } finally {
      cleanup();
    }
  });

  test("a run still being recorded is skipped, and exported once it has ended", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      const out = join(dir, "dataset");
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const hold = tool({
        name: "hold",
        description: "waits to be released",
        execute: async () => {
          await held;
          return "released";
        },
      });
      const agent = new Agent({
        provider: new ScriptedProvider([{ toolCalls: [{ id: "h", name: "hold", input: {} }] }, { text: "done" }]),
        tools: [hold],
        extensions: [new FlightRecorderExtension({ dir: store, flushIntervalMs: 5 })],
      });
      const running = agent.run("go");
      while (!existsSync(join(store, "runs")) || readdirSync(join(store, "runs")).length === 0)
        await new Promise((r) => setTimeout(r, 5));
      const during = await exportDataset({ storeDir: store, out });
      assert.deepEqual(during.runs, []);
      assert.deepEqual(
        during.skipped.map((s) => s.reason),
        ["recording"],
      );
      assert.ok(!existsSync(join(out, "runs")), "nothing of the run was written");
      release();
      const { runId } = await running;
      await agent.close();
      const after = await exportDataset({ storeDir: store, out });
      assert.deepEqual(
        after.runs.map((r) => r.runId),
        [runId],
      );
      assert.deepEqual(after.skipped, []);
    } finally {
      cleanup();
    }
  });

  test("an artifact shared by runs is stored once, and each run's index points at it", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      const out = join(dir, "dataset");
      const a = await recordRunWithArtifact(store);
      const b = await recordRunWithArtifact(store);
      assert.equal(a.sha256, b.sha256, "both runs spilled the same result");
      const first = await exportDataset({ storeDir: store, out, runIds: [a.runId] });
      const second = await exportDataset({ storeDir: store, out, runIds: [b.runId] });
      const shared = (r: DatasetExport) => r.runs[0].objects.find((o) => o.sha256 === a.sha256)!;
      assert.equal(shared(first).written, true);
      assert.equal(shared(second).written, false, "the second run found it stored");
      assert.equal(filesUnder(join(out, "objects")).filter((f) => f.endsWith(`${a.sha256}.zst`)).length, 1);
    } finally {
      cleanup();
    }
  });

  test("a spilled result (raw tool output) is stored redacted, under its redacted copy's id", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      const out = join(dir, "dataset");
      const secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
      const artifacts = new ArtifactStore(store);
      let raw = "";
      const spill = defineExtension({
        name: "spill-like",
        install(ctx) {
          ctx.registerTool(
            tool({
              name: "dump",
              description: "d",
              execute: async () => {
                const stored = await artifacts.put(`token=${secret}\n`);
                raw = stored.sha256;
                await ctx.emit(
                  "spill",
                  { toolName: "dump", toolCallId: "d", bytes: stored.bytes, resultId: "r1", sha256: raw, kind: "text" },
                  { artifacts: [{ sha256: raw, bytes: stored.bytes, mediaType: "text/plain" }] },
                );
                return "spilled";
              },
            }),
          );
        },
      });
      const agent = new Agent({
        provider: new ScriptedProvider([{ toolCalls: [{ id: "d", name: "dump", input: {} }] }, { text: "ok" }]),
        extensions: [new FlightRecorderExtension({ dir: store }), spill],
      });
      await agent.run("go");
      await agent.close();
      const result = await exportDataset({ storeDir: store, out });
      const objects = result.runs[0].objects;
      assert.equal(objects.length, 1);
      assert.notEqual(objects[0].sha256, raw, "a redacted copy has its own id");
      const text = (await zstdDecompress(readFileSync(objects[0].path))).toString();
      assert.ok(text.startsWith("token=") && !text.includes(secret), `the secret is not in the dataset: ${text}`);
      assert.ok(!filesUnder(out).some((f) => f.includes(raw)), "the raw result is not stored");
    } finally {
      cleanup();
    }
  });
});

describe("exportDataset refuses what it cannot use, with a DatasetError", () => {
  const problem = (problem: string) => (error: unknown) => error instanceof DatasetError && error.problem === problem;

  test("an out path that is a file, or a folder that holds other things, is not written into", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = join(dir, "store");
      await recordEchoRun(store, 0);
      writeFileSync(join(dir, "file"), "x");
      await assert.rejects(exportDataset({ storeDir: store, out: join(dir, "file") }), problem("not_a_folder"));
      mkdirSync(join(dir, "busy"));
      writeFileSync(join(dir, "busy", "notes.txt"), "mine");
      await assert.rejects(exportDataset({ storeDir: store, out: join(dir, "busy") }), problem("not_a_dataset"));
      assert.deepEqual(readdirSync(join(dir, "busy")), ["notes.txt"]);
      mkdirSync(join(dir, "future"));
      writeFileSync(
        join(dir, "future", "harnessx-dataset.json"),
        JSON.stringify({ format: "harnessx-dataset", version: 2 }),
      );
      await assert.rejects(
        exportDataset({ storeDir: store, out: join(dir, "future") }),
        problem("unsupported_version"),
      );
    } finally {
      cleanup();
    }
  });

  test("a store without runs, and a run the store does not have", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await assert.rejects(exportDataset({ storeDir: join(dir, "nowhere"), out: join(dir, "d") }), problem("no_store"));
      const store = join(dir, "store");
      await recordEchoRun(store, 0);
      await assert.rejects(
        exportDataset({ storeDir: store, out: join(dir, "d"), runIds: ["no-such-run"] }),
        problem("unknown_run"),
      );
      assert.ok(!existsSync(join(dir, "d")), "nothing is created for a request that fails");
    } finally {
      cleanup();
    }
  });
});
