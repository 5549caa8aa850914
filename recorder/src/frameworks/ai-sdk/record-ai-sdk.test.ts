// AI SDK 7 runs (real generateText, the SDK's mock language model, a real tool) recorded by
// recordAiSdk read back like native runs: the same events, spans, tokens, redaction and failures,
// and the call's telemetry settings kept.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { FlightRecorderExtension, openRecording } from "../../index.js";
import { allStoreBytes, assertToolArgumentRedacted } from "../../test-support/store-bytes.js";
import { recordWeatherRun, WEATHER_RUN } from "../../test-support/ai-sdk-runs.js";
import { aiSdkStore, kinds } from "../../test-support/ai-sdk-store.js";
import { tempDir } from "../../../../test/support/system.js";

const { store, readBack } = aiSdkStore();

describe("a multi-step tool-calling run is recorded as a native run", () => {
  test("its events: the run, three model calls, two tool calls, in order", async () => {
    const { runId, text } = await recordWeatherRun({ recorder: { dir: store.dir } });
    assert.equal(text, WEATHER_RUN.answer);
    const { run, events } = await readBack(runId);
    assert.deepEqual(kinds(events), [
      "agent_start",
      "llm_request",
      "llm_response",
      "tool_call_start",
      "tool_call_end",
      "llm_request",
      "llm_response",
      "tool_call_start",
      "tool_call_end",
      "llm_request",
      "llm_response",
      "agent_end",
    ]);
    assert.equal(run.status, "completed");
    assert.equal(run.agent, "ai-sdk");
    assert.equal(run.framework, "ai-sdk");
    assert.deepEqual(run.models, [WEATHER_RUN.model]);
    const start = events[0];
    assert.equal((start.attrs.spanAttributes as Record<string, unknown>)["harnessx.framework"], "ai-sdk");
  });

  test("run.json names the framework only for runs another framework made", async () => {
    const agent = new Agent({
      provider: new ScriptedProvider([{ text: "hi" }]),
      extensions: [new FlightRecorderExtension({ dir: store.dir })],
    });
    const native = await agent.run("hello");
    await agent.close();
    const { run } = await readBack(native.runId);
    assert.equal(run.framework, undefined);
  });

  test("its spans: names, parents and each model call's tokens", async () => {
    const { runId } = await recordWeatherRun({ recorder: { dir: store.dir } });
    const { spans } = await readBack(runId);
    const root = spans.find((s) => s.kind === "run")!;
    assert.equal(root.name, "invoke_agent ai-sdk");
    assert.equal(root.status, "ok");
    assert.deepEqual(
      spans.filter((s) => s !== root).map((s) => [s.name, s.parentSpanId === root.spanId]),
      [
        ["chat mock-weather-model", true],
        ["execute_tool weather", true],
        ["chat mock-weather-model", true],
        ["execute_tool weather", true],
        ["chat mock-weather-model", true],
      ],
    );
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(
      chats.map((s) => [s.inputTokens, s.outputTokens]),
      WEATHER_RUN.usage.map((u) => [u.input, u.output]),
    );
    assert.equal(root.inputTokens, 780);
    assert.equal(root.outputTokens, 67);
    assert.ok(
      chats.every((s) => !("gen_ai.request.max_tokens" in s.attrs)),
      "a call that set no maxOutputTokens names no reply budget (not 0)",
    );
  });

  test("a model call keeps what was sent and answered: messages, tools, cache reads, finish reason and response id", async () => {
    const { runId } = await recordWeatherRun({ recorder: { dir: store.dir } });
    const recording = await openRecording({ storeDir: store.dir, runId });
    try {
      const events = await recording.readEvents();
      type RequestPayload = {
        request: {
          system?: string;
          messages: Array<{ role: string; content: Array<{ type: string; content?: string }> }>;
          tools?: Array<{ name: string }>;
        };
      };
      const requests = events.filter((e) => e.kind === "llm_request");
      // The recorder keeps the system prompt and tools once (later requests reuse them) and only the messages each request adds.
      const first = (await recording.payloadOf(requests[0])) as RequestPayload;
      assert.equal(first.request.system, "You advise on clothes.");
      assert.deepEqual(
        first.request.tools?.map((t) => t.name),
        ["weather"],
      );
      assert.deepEqual(first.request.messages[0].content, [{ type: "text", text: WEATHER_RUN.input }]);
      const second = (await recording.payloadOf(requests[1])) as RequestPayload;
      const toolResult = second.request.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result");
      assert.match(toolResult?.content ?? "", /"sky":"rain"/);
      const response = events.filter((e) => e.kind === "llm_response")[1];
      assert.equal(response.attrs.stopReason, "tool_use");
      assert.equal(response.attrs.responseId, "resp-2");
      assert.equal(response.attrs.provider, WEATHER_RUN.provider);
      const reply = (await recording.payloadOf(response)) as { usage: { cacheReadTokens?: number } };
      assert.equal(reply.usage.cacheReadTokens, 100);
    } finally {
      await recording.close();
    }
  });
});

describe("redaction happens before anything is written", () => {
  test("a secret in a tool call's arguments never reaches the store", async () => {
    const secretStore = tempDir("hx-ai-sdk-secret-");
    try {
      const secret = "ghp_AISDKSECRET0123456789abcdefghijklmnop";
      const { runId } = await recordWeatherRun({ recorder: { dir: secretStore.dir } }, { secret });
      await assertToolArgumentRedacted(secretStore.dir, runId, secret, "apiKey");
    } finally {
      secretStore.cleanup();
    }
  });
});

describe("the call's telemetry settings are kept", () => {
  test("with recordInputs and recordOutputs false, no prompt, argument, result or answer is written", async () => {
    const quiet = tempDir("hx-ai-sdk-quiet-");
    try {
      const { runId, text } = await recordWeatherRun(
        { recorder: { dir: quiet.dir } },
        { record: { inputs: false, outputs: false } },
      );
      assert.equal(text, WEATHER_RUN.answer);
      for (const file of await allStoreBytes(quiet.dir)) {
        for (const content of ["Oslo", "raincoat", "You advise", "sky"])
          assert.ok(!file.text.includes(content), `"${content}" is in ${file.path}`);
      }
      const recording = await openRecording({ storeDir: quiet.dir, runId });
      const spans = await recording.spans();
      await recording.close();
      assert.equal(spans.length, 6, "the run's shape and tokens are still recorded");
      assert.equal(spans[0].inputTokens, 780);
    } finally {
      quiet.cleanup();
    }
  });
});

describe("failures are recorded as a native run records them", () => {
  test("a tool that throws: its call ends failed with the message, and the run goes on", async () => {
    const { runId } = await recordWeatherRun({ recorder: { dir: store.dir } }, { failingTool: true });
    const { run, events, spans } = await readBack(runId);
    assert.equal(run.status, "completed");
    const ends = events.filter((e) => e.kind === "tool_call_end");
    assert.deepEqual(
      ends.map((e) => e.attrs.outcome),
      ["executed", "failed"],
    );
    const failed = spans.filter((s) => s.kind === "tool")[1];
    assert.equal(failed.status, "error");
  });

  test("a model that fails: an ERROR, the open model call ends failed, and the run fails", async () => {
    const { runId, error } = await recordWeatherRun(
      { recorder: { dir: store.dir } },
      { modelError: new Error("upstream 503: overloaded") },
    );
    assert.ok(error, "generateText threw");
    const { run, events, spans } = await readBack(runId);
    assert.equal(run.status, "failed");
    assert.match(run.error?.message ?? "", /upstream 503/);
    assert.deepEqual(kinds(events).slice(-2), ["error", "agent_end"]);
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(
      chats.map((s) => s.status),
      ["ok", "error"],
    );
  });
});
