import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { openBundle } from "../bundle/open-bundle.js";
import { FlightRecorderExtension } from "../recording/flight-recorder.js";
import { ResultSpillExtension } from "./result-spill-extension.js";
import { tempStore } from "./test-support/spill-harness.js";

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
        const bundle = await recorder.exportIncident({ runId: run.runId, reason: "test", out: `${tmp.root}/incident.tar` });
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
