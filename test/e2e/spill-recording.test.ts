// Two built-ins that never import each other, working together through core's events: the flight
// recorder pins, lists and bundles what the result spill stores, and bundles hold redacted copies.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  Agent,
  ArtifactStore,
  FlightRecorderExtension,
  Redactor,
  ResultSpillExtension,
  ScriptedProvider,
  exportIncident,
  openBundle,
  tool,
} from "harnessx";
import { tempStore } from "@harnessx/spill/test-support";
import { bundleText } from "@harnessx/recorder/test-support";
import { tempDir } from "../support/system.js";

const PASSWORD = "Hunter2-Secret!";

describe("a recording keeps a spilled result alive and bundles it", () => {
  for (const order of ["recorder first", "spill first"] as const) {
    test(`with retention "session" and the ${order}, the artifact survives close() and the incident bundle carries it`, async () => {
      const tmp = tempStore();
      const table = JSON.stringify(Array.from({ length: 3_000 }, (_, i) => ({ id: i, label: `item ${i}` })));
      const bigTable = tool({ name: "big_table", description: "a big table", execute: () => table });
      const recorder = new FlightRecorderExtension({ dir: tmp.root });
      const spill = new ResultSpillExtension({ store: tmp.store, retention: "session" });
      const agent = new Agent({
        provider: new ScriptedProvider([{ toolCalls: [{ name: "big_table", input: {} }] }, { text: "ok" }]),
        tools: [bigTable],
        extensions: order === "recorder first" ? [recorder, spill] : [spill, recorder],
      });
      try {
        const run = await agent.run("go");
        assert.equal(run.status, "completed");
        const [spilled] = spill.spills;
        await agent.close();
        assert.equal(await tmp.store.has(spilled.sha256), true, "the recording's pin keeps the artifact");
        assert.deepEqual(await tmp.store.holders(spilled.sha256), [`run:${run.runId}`]);
        const bundle = await recorder.exportIncident({
          runId: run.runId,
          reason: "test",
          out: `${tmp.root}/incident.tar`,
        });
        assert.ok(bundle.artifacts >= 1);
        const opened = await openBundle(bundle.path);
        assert.ok(opened.artifacts.includes(spilled.sha256), "the bundle carries the spilled artifact");
        assert.equal((await opened.artifact(spilled.sha256)).toString("utf8"), table);
      } finally {
        await agent.close();
        tmp.cleanup();
      }
    });
  }
});

describe("spilled results enter a bundle redacted unless asked for raw", () => {
  async function spilledRun(dir: string, redact?: ConstructorParameters<typeof Agent>[0]["redact"]) {
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      id: i,
      email: `customer${i}@example.com`,
      note: i === 7 ? `password=${PASSWORD}` : i === 9 ? "see TICKET-4711" : "ok",
    }));
    const exportRows = tool({ name: "export_rows", description: "exports rows", execute: () => rows });
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: "c1", name: "export_rows", input: {} }] },
      { text: "done" },
    ]);
    const recorder = new FlightRecorderExtension({ dir });
    const agent = new Agent({
      provider,
      tools: [exportRows],
      ...(redact ? { redact } : {}),
      extensions: [recorder, new ResultSpillExtension({ thresholdBytes: 2000, store: new ArtifactStore(dir) })],
    });
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
        assert.ok(
          !text.includes("customer1234@example.com") && !text.includes(PASSWORD),
          `${name} holds raw spill data`,
        );
      }
      const bundle = await openBundle(exported.path);
      const spillEvent = bundle.events.find((e) => e.kind === "custom")!;
      const original = (spillEvent.attrs.artifacts as Array<{ sha256: string }>)[0].sha256;
      assert.deepEqual(
        bundle.events.find((e) => e.kind === "tool_call_end")!.attrs.artifacts,
        spillEvent.attrs.artifacts,
        "the tool result names the same stored result",
      );
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
      const original = (bundle.events.find((e) => e.kind === "custom")!.attrs.artifacts as Array<{ sha256: string }>)[0]
        .sha256;
      assert.match((await bundle.artifact(original)).toString("utf8"), /customer1234@example\.com/);
    } finally {
      cleanup();
    }
  });

  test("the spill copy is redacted with the exporter's policy: the recorder's is its agent's; a recorded pattern is named, never run", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const ticket = { name: "ticket", pattern: /\bTICKET-\d{4}\b/g };
      const { recorder, runId } = await spilledRun(dir, { extraPatterns: [ticket] });
      const spillOf = async (path: string) => {
        const bundle = await openBundle(path);
        const original = (
          bundle.events.find((e) => e.kind === "custom")!.attrs.artifacts as Array<{ sha256: string }>
        )[0].sha256;
        return (await bundle.artifact(original)).toString("utf8");
      };
      const own = await recorder.exportIncident({ runId, out: join(dir, "own.tar") });
      assert.deepEqual(own.unappliedPatterns, []);
      assert.match(await spillOf(own.path), /see \[REDACTED:ticket\]/, "the recorder exports with its agent's policy");
      // Another reader of the store: the defaults, unless it passes its own policy.
      const plain = await exportIncident({ dir, runId, reason: "manual", out: join(dir, "plain.tar") });
      assert.deepEqual(plain.unappliedPatterns, ["ticket"]);
      assert.match(await spillOf(plain.path), /see TICKET-4711/);
      const given = await exportIncident({
        dir,
        runId,
        reason: "manual",
        out: join(dir, "given.tar"),
        redactor: new Redactor({ extraPatterns: [ticket] }),
      });
      assert.deepEqual(given.unappliedPatterns, []);
      assert.match(await spillOf(given.path), /see \[REDACTED:ticket\]/);
    } finally {
      cleanup();
    }
  });
});
