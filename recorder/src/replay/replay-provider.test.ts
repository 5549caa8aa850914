import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ProviderError, ScriptedProvider, tool } from "@harnessx/core";
import { FlightRecorderExtension, RecordingStore, ReplayProvider } from "../index.js";
import { echoScript, echoTool } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

function counterTool(suffix: string) {
  return tool({
    name: "echo",
    description: "Echoes its input",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, additionalProperties: true },
    execute: (input) => ({ echoed: input, suffix }),
  });
}

async function record(dir: string, steps = echoScript(4), tools = [echoTool]): Promise<string> {
  const recorder = new FlightRecorderExtension({ dir, inlinePayloadBytes: 512 });
  const agent = new Agent({
    provider: new ScriptedProvider(steps),
    tools,
    extensions: [recorder],
    system: "Replay me.",
  });
  const result = await agent.run("start the job");
  await agent.close();
  return result.runId;
}

describe("ReplayProvider answers with the recorded replies", () => {
  test("rerunning the same code reproduces the run with no divergence (from the store and from a bundle)", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runId = await record(dir);
      const store = new RecordingStore(dir);
      const original = await store.readEvents(runId);
      for (const replay of [
        await ReplayProvider.fromRun(store, runId),
        await ReplayProvider.fromBundle((await store.exportIncident({ runId })).path),
      ]) {
        const agent = new Agent({ provider: replay, tools: [echoTool], system: "Replay me." });
        const result = await agent.run("start the job");
        assert.equal(result.status, "completed");
        assert.equal(result.text, "done");
        assert.equal(replay.position, 5);
        assert.deepEqual(replay.divergences, []);
        assert.equal(result.modelCalls, original.filter((e) => e.kind === "llm_response").length);
      }
    } finally {
      cleanup();
    }
  });

  test("changed code is reported where its requests diverge", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runId = await record(dir);
      const replay = await ReplayProvider.fromRun(new RecordingStore(dir), runId);
      const agent = new Agent({ provider: replay, tools: [counterTool("v2")], system: "Replay me." });
      await agent.run("start the job");
      assert.equal(replay.diverged, true);
      const first = replay.divergences[0];
      assert.equal(first.call, 1, "the first call matches; the second carries the changed tool result");
      assert.match(first.path, /^messages\.2\.content\.0\.content$/);
      assert.match(String(first.actual), /v2/);
    } finally {
      cleanup();
    }
  });

  test("recorded provider failures are replayed as ProviderErrors; running past the recording is an error", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const runId = await record(dir, [{ error: { status: 503, message: "overloaded" } }, { text: "after retry" }]);
      const replay = await ReplayProvider.fromRun(new RecordingStore(dir), runId);
      const req = {
        model: "scripted-model",
        system: "Replay me.",
        messages: [],
        tools: [],
        maxTokens: 10,
        stream: false,
      };
      await assert.rejects(replay.complete(req), (e: unknown) => e instanceof ProviderError && e.kind === "server");
      assert.equal((await replay.complete(req)).content[0].type, "text");
      await assert.rejects(
        replay.complete(req),
        (e: unknown) => e instanceof ProviderError && /has 2 model calls/.test(e.message),
      );
    } finally {
      cleanup();
    }
  });
});
