import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import {
  FlightRecorderExtension,
  readRun,
  rebuildRequests,
  runDirOf,
  type RecordedEvent,
  type RunManifest,
} from "../index.js";
import { echoScript, echoTool, scriptedAgent } from "../test-support/agents.js";

declare module "@harnessx/core/extension" {
  interface CustomEvents {
    "test.spillish": { toolName: string; bytes: number };
  }
}
import { tempDir } from "../../../test/support/system.js";

function byKind(events: RecordedEvent[], kind: string): RecordedEvent[] {
  return events.filter((e) => e.kind === kind);
}

describe("every event of a run is recorded in order with nested spans", () => {
  test("run > model call / tool call spans, seq without gaps, run.json complete", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      const agent = scriptedAgent(echoScript(3), [recorder]);
      const result = await agent.run("hello");
      await agent.close();
      const runDir = runDirOf(dir, result.runId);
      const manifest = JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")) as RunManifest;
      assert.equal(manifest.status, "completed");
      assert.equal(manifest.agent, "test-agent");
      assert.deepEqual(manifest.models, ["scripted-model"]);
      assert.equal(manifest.producer.node, process.version);
      assert.match(manifest.producer.recorder, /^\d+\.\d+\.\d+/);
      assert.ok(manifest.endedAt! >= manifest.startedAt);
      assert.equal(existsSync(join(runDir, "lock")), false, "lock released");
      assert.ok(
        readdirSync(join(runDir, "segments")).every((n) => n.endsWith(".zst") || n.endsWith(".sha256")),
        "all segments sealed",
      );

      const { events } = await readRun(runDir);
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
      assert.equal(events[0].kind, "agent_start");
      assert.equal(events[events.length - 1].kind, "agent_end");
      const runSpan = events[0].spanId;
      assert.equal(runSpan, manifest.runSpanId);
      const requests = byKind(events, "llm_request");
      const responses = byKind(events, "llm_response");
      assert.equal(requests.length, 4);
      for (let i = 0; i < requests.length; i++) {
        assert.equal(requests[i].parentSpanId, runSpan);
        assert.equal(responses[i].spanId, requests[i].spanId, "model span from LLM_REQUEST to LLM_RESPONSE");
      }
      const starts = byKind(events, "tool_call_start");
      const ends = byKind(events, "tool_call_end");
      assert.equal(starts.length, 3);
      for (let i = 0; i < 3; i++) {
        assert.equal(ends[i].spanId, starts[i].spanId);
        assert.equal(ends[i].parentSpanId, runSpan);
        assert.equal(ends[i].attrs.toolName, "echo");
        assert.deepEqual((ends[i].payload as { rawResult: unknown }).rawResult, { echoed: { text: `step ${i}` } });
      }
      assert.equal(new Set([...requests, ...starts].map((e) => e.spanId)).size, 7, "distinct span ids");
      assert.equal(responses[0].attrs.inputTokens, 10);
      assert.equal(manifest.summary!.inputTokens, 40);
      assert.equal(manifest.summary!.toolCalls, 3);
    } finally {
      cleanup();
    }
  });

  test("a denied call (TOOL_CALL_END without start) still gets its own span; CUSTOM events hang under the open span", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      const emitter = defineExtension({
        name: "emitter",
        install(ctx) {
          ctx.registerTool(
            tool({
              name: "spillish",
              description: "emits",
              execute: async () => {
                await ctx.emit("test.spillish", { toolName: "spillish", bytes: 3 });
                return "ok";
              },
            }),
          );
        },
      });
      const provider = new ScriptedProvider([
        {
          toolCalls: [
            { id: "c1", name: "nope" },
            { id: "c2", name: "spillish" },
          ],
        },
        { text: "end" },
      ]);
      const agent = new Agent({ provider, extensions: [recorder, emitter] });
      const result = await agent.run("go");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const unknown = events.find((e) => e.kind === "tool_call_end" && e.attrs.toolCallId === "c1")!;
      assert.equal(unknown.attrs.outcome, "unknown_tool");
      assert.ok(unknown.spanId && unknown.spanId !== events[0].spanId);
      const custom = byKind(events, "custom")[0];
      const spillStart = events.find((e) => e.kind === "tool_call_start" && e.attrs.toolCallId === "c2")!;
      assert.equal(custom.spanId, null);
      assert.equal(custom.parentSpanId, spillStart.spanId);
      assert.equal(custom.attrs.name, "test.spillish");
    } finally {
      cleanup();
    }
  });
});

describe("long conversations are stored incrementally and rebuilt whole", () => {
  test("each LLM_REQUEST stores only new messages; rebuildRequests matches what the provider received", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new FlightRecorderExtension({ dir });
      const provider = new ScriptedProvider(echoScript(20), { recordRequests: true });
      const agent = new Agent({ provider, tools: [echoTool], extensions: [recorder], system: "You are a test." });
      const result = await agent.run("start");
      await agent.close();
      const { events } = await readRun(runDirOf(dir, result.runId));
      const requests = byKind(events, "llm_request");
      const stored = requests.map((e) => (e.payload as { request: { messages: unknown[] } }).request.messages.length);
      assert.equal(stored[0], 1);
      assert.ok(
        stored.slice(1).every((n) => n === 2),
        `only the new assistant+tool messages: ${stored}`,
      );
      assert.ok(requests.slice(1).every((e) => e.attrs.prefixReused === true));
      const rebuilt = rebuildRequests(events);
      assert.deepEqual(JSON.parse(JSON.stringify(rebuilt)), JSON.parse(JSON.stringify(provider.requests)));
    } finally {
      cleanup();
    }
  });
});
