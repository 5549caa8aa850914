// OpenAI Agents SDK runs (the SDK's Runner, a scripted Model traced as the SDK's own models are,
// a real tool, a handoff, an input guardrail) recorded by recordOpenAIAgents read back like
// native runs: the same events, spans, tokens, redaction and failures.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { defineExtension } from "@harnessx/core/extension";
import {
  openRecording,
  recordOpenAIAgents,
  RecordingStore,
  type AgentsSdkSpan,
  type RecordedEvent,
} from "../../index.js";
import { assertToolArgumentRedacted } from "../../test-support/store-bytes.js";
import { AGENTS_WEATHER_RUN, recordAgentsWeatherRun } from "../../test-support/openai-agents-runs.js";
import { tempDir } from "../../../../test/support/system.js";

const store = tempDir("hx-openai-agents-");
after(() => store.cleanup());

async function readBack(runId: string) {
  const recording = await openRecording({ storeDir: store.dir, runId });
  try {
    const events = await recording.readEvents();
    const start = (await recording.payloadOf(events[0])) as { input?: string };
    return { run: recording.run, events, spans: await recording.spans(), input: start.input };
  } finally {
    await recording.close();
  }
}

const kinds = (events: RecordedEvent[]) => events.map((e) => e.kind);
const MODEL_CALL = ["llm_request", "llm_response"];
const TOOL_CALL = ["tool_call_start", "tool_call_end"];

describe("a multi-step tool-calling run with a handoff is recorded as a native run", () => {
  test("its events: the run, the guardrail, four model calls, two tool calls and the handoff, in order", async () => {
    const { runId, text } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } });
    assert.equal(text, AGENTS_WEATHER_RUN.answer);
    const { run, events, input } = await readBack(runId);
    assert.deepEqual(kinds(events), [
      "agent_start",
      "custom",
      ...MODEL_CALL,
      ...TOOL_CALL,
      ...MODEL_CALL,
      ...TOOL_CALL,
      ...MODEL_CALL,
      ...TOOL_CALL,
      ...MODEL_CALL,
      "agent_end",
    ]);
    assert.equal(run.status, "completed");
    assert.equal(run.agent, "openai-agents");
    assert.equal(input, AGENTS_WEATHER_RUN.input);
    assert.deepEqual(run.models, [AGENTS_WEATHER_RUN.model]);
    const attributes = events[0].attrs.spanAttributes as Record<string, unknown>;
    assert.equal(attributes["harnessx.framework"], "openai-agents");
    assert.equal(attributes["openai_agents.workflow"], "weather advice");
    assert.equal(attributes["gen_ai.agent.name"], "planner");
    const ends = events.filter((e) => e.kind === "tool_call_end");
    assert.deepEqual(
      ends.map((e) => [e.attrs.toolName, e.attrs.toolCallId]),
      [
        ["weather", "call-oslo"],
        ["weather", "call-bergen"],
        ["transfer_to_writer", "call-handoff"],
      ],
    );
  });

  test("its spans: names, parents and each model call's tokens, cache reads included", async () => {
    const { runId } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } });
    const { spans } = await readBack(runId);
    const root = spans.find((s) => s.kind === "run")!;
    assert.equal(root.name, "invoke_agent openai-agents");
    assert.equal(root.status, "ok");
    const chat = `chat ${AGENTS_WEATHER_RUN.model}`;
    assert.deepEqual(
      spans.filter((s) => s !== root).map((s) => [s.name, s.parentSpanId === root.spanId]),
      [
        [chat, true],
        ["execute_tool weather", true],
        [chat, true],
        ["execute_tool weather", true],
        [chat, true],
        ["execute_tool transfer_to_writer", true],
        [chat, true],
      ],
    );
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(
      chats.map((s) => [s.inputTokens, s.outputTokens]),
      AGENTS_WEATHER_RUN.usage.map((u) => [u.input, u.output]),
    );
    assert.equal(root.inputTokens, 1110);
    assert.equal(root.outputTokens, 76);
  });

  test("a model call keeps what was sent and answered: system text, messages, tool results, cache reads, response id", async () => {
    const { runId } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } });
    const recording = await openRecording({ storeDir: store.dir, runId });
    try {
      const events = await recording.readEvents();
      type RequestPayload = {
        request: {
          system?: string;
          messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: string }> }>;
          tools?: Array<{ name: string }>;
        };
      };
      const requests = events.filter((e) => e.kind === "llm_request");
      const first = (await recording.payloadOf(requests[0])) as RequestPayload;
      assert.equal(first.request.system, "You advise on clothes.");
      assert.deepEqual(
        first.request.tools?.map((t) => t.name),
        ["weather"],
      );
      assert.deepEqual(first.request.messages[0].content, [{ type: "text", text: AGENTS_WEATHER_RUN.input }]);
      const second = (await recording.payloadOf(requests[1])) as RequestPayload;
      const toolResult = second.request.messages.flatMap((m) => m.content).find((b) => b.type === "tool_result");
      assert.match(toolResult?.content ?? "", /"sky":"rain"/);
      const response = events.filter((e) => e.kind === "llm_response")[1];
      assert.equal(response.attrs.stopReason, "tool_use");
      assert.equal(response.attrs.responseId ?? "", "");
      const reply = (await recording.payloadOf(response)) as { usage: { cacheReadTokens?: number } };
      assert.equal(reply.usage.cacheReadTokens, 100);
    } finally {
      await recording.close();
    }
  });

  test("a model that puts no usage on its span: each turn's usage stands in", async () => {
    const { runId } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } }, { usageOnTurnsOnly: true });
    const { spans } = await readBack(runId);
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(
      chats.map((s) => [s.inputTokens, s.outputTokens]),
      AGENTS_WEATHER_RUN.usage.map((u) => [u.input, u.output]),
    );
  });
});

describe("redaction happens before anything is written", () => {
  test("a secret in a tool call's arguments never reaches the store", async () => {
    const secretStore = tempDir("hx-openai-agents-secret-");
    try {
      const secret = "ghp_AGENTSSDKSECRET0123456789abcdefghijkl";
      const { runId } = await recordAgentsWeatherRun({ recorder: { dir: secretStore.dir } }, { secret });
      await assertToolArgumentRedacted(secretStore.dir, runId, secret, "apiKey");
    } finally {
      secretStore.cleanup();
    }
  });
});

describe("failures are recorded as a native run records them", () => {
  test("a tool that throws: its call ends failed with the message, and the run goes on", async () => {
    const { runId, text } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } }, { failingTool: true });
    assert.equal(text, AGENTS_WEATHER_RUN.answer);
    const { run, events, spans } = await readBack(runId);
    assert.equal(run.status, "completed");
    const ends = events.filter((e) => e.kind === "tool_call_end");
    assert.deepEqual(
      ends.map((e) => e.attrs.outcome),
      ["executed", "failed", "executed"],
    );
    const failed = spans.filter((s) => s.kind === "tool")[1];
    assert.equal(failed.status, "error");
  });

  test("a model that fails: its call ends failed, then an ERROR and a failed run", async () => {
    const { runId, error } = await recordAgentsWeatherRun(
      { recorder: { dir: store.dir } },
      { modelError: new Error("upstream 503: overloaded") },
    );
    assert.ok(error, "the runner threw");
    const { run, events, spans } = await readBack(runId);
    assert.equal(run.status, "failed");
    assert.deepEqual(kinds(events).slice(-2), ["error", "agent_end"]);
    const chats = spans.filter((s) => s.kind === "model");
    assert.deepEqual(
      chats.map((s) => s.status),
      ["ok", "error"],
    );
    const errors = events.filter((e) => e.kind === "error");
    assert.deepEqual(
      errors.map((e) => e.attrs.source),
      ["provider", "provider"],
    );
    assert.match(String(errors[0].attrs.errorMessage), /upstream 503/);
    assert.match(run.error?.message ?? "", /upstream 503/);
  });

  test("a guardrail whose tripwire triggers: a custom event that says so, and a failed run", async () => {
    const { runId, error } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } }, { tripwire: true });
    assert.ok(error, "the runner threw");
    const { run, events } = await readBack(runId);
    assert.equal(run.status, "failed");
    const guardrail = events.find((e) => e.kind === "custom")!;
    assert.deepEqual([guardrail.attrs.name, guardrail.attrs.extension], ["openai-agents.guardrail", "openai-agents"]);
    assert.match(run.error?.message ?? "", /guardrail/i);
  });
});

describe("runs are recorded as they go, and runs inside tools nest", () => {
  test("each turn is reported when it ends: the first model call and tool call are with the recorder before the second tool runs", async () => {
    const seen: string[] = [];
    let seenAtBergen: string[] = [];
    const observer = defineExtension("observer", (ctx) => void ctx.onAnyHook((event) => void seen.push(event.event)));
    await recordAgentsWeatherRun(
      { recorder: { dir: store.dir }, extensions: [observer] },
      { onWeather: (city) => void (city === "Bergen" && (seenAtBergen = [...seen])) },
    );
    assert.deepEqual(seenAtBergen, ["agent_start", "custom", ...MODEL_CALL, ...TOOL_CALL]);
  });

  test("an agent used as a tool: its run is recorded apart, under the tool call's span, in the same trace", async () => {
    const { runId, text } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } }, { writerAsTool: true });
    assert.equal(text, AGENTS_WEATHER_RUN.answer);
    const outer = await readBack(runId);
    const askWriter = outer.spans.find((s) => s.name === "execute_tool ask_writer")!;
    assert.ok(askWriter, `spans: ${outer.spans.map((s) => s.name)}`);
    const runs = new RecordingStore(store.dir);
    const inner = (await runs.listRuns()).find((r) => r.traceId === outer.run.traceId && r.runId !== runId)!;
    assert.ok(inner, "the writer's run is in the store");
    const { run, spans, input } = await readBack(inner.runId);
    assert.equal(run.status, "completed");
    assert.equal(input, "Advise on rain.");
    const root = spans.find((s) => s.kind === "run")!;
    assert.equal(root.parentSpanId, askWriter.spanId);
    assert.deepEqual(spans.filter((s) => s.kind === "model").length, 1);
  });
});

describe("what the recording cannot read is left out, never thrown at the SDK", () => {
  test("spans without data, of unknown traces or ending twice resolve, and a run after them is recorded", async () => {
    const recording = recordOpenAIAgents({ recorder: { dir: store.dir } });
    const odd = [
      undefined,
      null,
      {},
      {
        spanId: "s",
        traceId: "t",
        parentId: null,
        spanData: null,
        startedAt: "not a time",
        endedAt: null,
        error: null,
      },
    ] as unknown as AgentsSdkSpan[];
    for (const span of odd) {
      await recording.onSpanStart(span);
      await recording.onSpanEnd(span);
      await recording.onSpanEnd(span);
    }
    await recording.onTraceEnd({ traceId: "never-started", name: "", groupId: null });
    await recording.close();
    const { runId } = await recordAgentsWeatherRun({ recorder: { dir: store.dir } });
    assert.equal((await readBack(runId)).run.status, "completed");
  });
});
