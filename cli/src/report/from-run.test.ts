// The report's event list carries the one-line note of the events a reader looks for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { FlightRecorderExtension, openRecording } from "@harnessx/recorder";
import { reportDataFrom } from "./from-run.js";

test("a command is noted in the event list; ordinary events are not", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hx-report-notes-"));
  try {
    const ops = defineExtension(
      "ops",
      (ctx) => void ctx.registerCommand("ticket", { description: "d", handler: (args) => `Fix ticket ${args}.` }),
    );
    const agent = new Agent({
      provider: new ScriptedProvider([{ text: "done" }]),
      extensions: [new FlightRecorderExtension({ dir }), ops],
    });
    const { runId } = await agent.run("/ticket 42");
    await agent.close();
    await using recording = await openRecording(runId, { storeDir: dir });
    const data = await reportDataFrom(recording);
    const noted = data.events.filter((e) => e.message !== undefined).map((e) => [e.kind, e.message]);
    assert.deepEqual(noted, [
      ["command_invoked", `/ticket 42 (extension ops) sent a message of ${"Fix ticket 42.".length} chars`],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
