import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ToolCall } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { FlightRecorderExtension, readRun, runDirOf } from "../index.js";
import { echoScript, scriptedAgent } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";

describe("a middleware's change of a tool call is in the recording, with who made it", () => {
  test("rewrittenBy on tool_call_start and tool_call_end names the extension; an untouched call has none", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const louder = defineExtension({
        name: "louder",
        install(ctx) {
          ctx.addMiddleware({
            name: "shout",
            async beforeToolExecution(call: ToolCall): Promise<ToolCall> {
              return call.input.text === "step 1" ? { ...call, input: { text: "STEP 1" } } : call;
            },
          });
        },
      });
      const agent = scriptedAgent(echoScript(2), [new FlightRecorderExtension({ dir }), louder]);
      const result = await agent.run("go");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const calls = events.filter((e) => e.kind === "tool_call_start" || e.kind === "tool_call_end");
      assert.deepEqual(
        calls.map((e) => [e.kind, e.attrs.toolCallId, e.attrs.rewrittenBy]),
        [
          ["tool_call_start", "call_0", undefined],
          ["tool_call_end", "call_0", undefined],
          ["tool_call_start", "call_1", ["louder"]],
          ["tool_call_end", "call_1", ["louder"]],
        ],
      );
    } finally {
      cleanup();
    }
  });
});
