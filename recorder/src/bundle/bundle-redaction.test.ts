import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import tar from "tar-stream";
import { ArtifactStore, zstdDecompress } from "@harnessx/artifacts";
import { FlightRecorderExtension, ResultSpillExtension, openBundle, runDirOf } from "../index.js";
import { tempDir } from "../../../test/support/system.js";

const API_KEY = "sk-proj-Zt8q3LmNv0pQ2rS4tU6wX8yZa1B3c5D7";
const PASSWORD = "Hunter2-Secret!";

/** Every member of a tar, decompressed when zstd. */
async function bundleText(path: string): Promise<Map<string, string>> {
  const members = new Map<string, string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: unknown) => void chunks.push(c as Buffer));
      stream.on("end", async () => {
        const data = Buffer.concat(chunks);
        members.set(header.name, (header.name.endsWith(".zst") ? await zstdDecompress(data) : data).toString("utf8"));
        next();
      });
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  extract.end(readFileSync(path));
  await done;
  return members;
}

describe("run metadata and bundle manifests are redacted like events", () => {
  test("a failed run's error message keeps no secret in run.json, the bundle's manifest or its events", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      const provider = new ScriptedProvider([{ error: { status: 400, message: `bad request: password=${PASSWORD} with key ${API_KEY}` } }]);
      const agent = new Agent({ provider, extensions: [recorder] });
      const result = await agent.run("go");
      await agent.close();
      assert.equal(result.status, "failed");
      const runJson = readFileSync(join(runDirOf(dir, result.runId), "run.json"), "utf8");
      assert.match(runJson, /"message": "bad request: password=\[REDACTED\]/);
      const bundle = await recorder.exportIncident({ runId: result.runId, reason: `ticket 7: user pasted ${API_KEY}`, out: join(dir, "b.tar") });
      for (const [name, text] of [["run.json", runJson], ...(await bundleText(bundle.path))] as const) {
        assert.ok(!text.includes(PASSWORD) && !text.includes(API_KEY), `${name} holds a secret`);
      }
      assert.match((await openBundle(bundle.path)).manifest.trigger.reason, /^ticket 7: user pasted \[REDACTED:api_key\]$/);
    } finally {
      cleanup();
    }
  });
});

describe("spilled results enter a bundle redacted unless asked for raw", () => {
  async function spilledRun(dir: string) {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, email: `customer${i}@example.com`, note: i === 7 ? `password=${PASSWORD}` : "ok" }));
    const exportRows = tool({ name: "export_rows", description: "exports rows", execute: () => rows });
    const provider = new ScriptedProvider([{ toolCalls: [{ id: "c1", name: "export_rows", input: {} }] }, { text: "done" }]);
    const recorder = new FlightRecorderExtension({ dir });
    const agent = new Agent({ provider, tools: [exportRows], extensions: [recorder, new ResultSpillExtension({ thresholdBytes: 2000, store: new ArtifactStore(dir) })] });
    const result = await agent.run("export");
    await agent.close();
    return { recorder, runId: result.runId };
  }

  test("by default the spill in the bundle is a redacted copy, readable under the id the events name", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { recorder, runId } = await spilledRun(dir);
      const exported = await recorder.exportIncident({ runId, out: join(dir, "b.tar") });
      assert.deepEqual([exported.spills.count, exported.spills.redacted, exported.spills.raw], [1, 1, false]);
      for (const [name, text] of await bundleText(exported.path)) {
        assert.ok(!text.includes("customer1234@example.com") && !text.includes(PASSWORD), `${name} holds raw spill data`);
      }
      const bundle = await openBundle(exported.path);
      const spillEvent = bundle.events.find((e) => e.kind === "custom")!;
      const original = (spillEvent.attrs.artifacts as Array<{ sha256: string }>)[0].sha256;
      assert.deepEqual(bundle.events.find((e) => e.kind === "tool_call_end")!.attrs.artifacts, spillEvent.attrs.artifacts, "the tool result names the same stored result");
      assert.notEqual(bundle.manifest.spills?.copies[original], undefined);
      const copy = (await bundle.artifact(original)).toString("utf8");
      assert.match(copy, /\[REDACTED:email\]/);
      assert.equal(JSON.parse(copy).length, 2000, "still the same rows, as JSON");
    } finally {
      cleanup();
    }
  });

  test("--include-raw-spills copies the spill as stored, and the manifest says so", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { recorder, runId } = await spilledRun(dir);
      const exported = await recorder.exportIncident({ runId, out: join(dir, "raw.tar"), includeRawSpills: true });
      assert.equal(exported.spills.raw, true);
      const bundle = await openBundle(exported.path);
      assert.equal(bundle.manifest.spills?.redacted, false);
      const original = (bundle.events.find((e) => e.kind === "custom")!.attrs.artifacts as Array<{ sha256: string }>)[0].sha256;
      assert.match((await bundle.artifact(original)).toString("utf8"), /customer1234@example\.com/);
    } finally {
      cleanup();
    }
  });
});
