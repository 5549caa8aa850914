import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { OpenTelemetryExtension } from "./extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";
import { startOtlpReceiver, type OtlpReceiver } from "../test-support/otlp-receiver.js";
import { AGENT_NAME, BIG_MARKER, LONG_QUESTION, MODEL, scenarioAgent } from "../test-support/scenario.js";
import type { OtlpSpan } from "../convert/otlp-json.js";

const KIND_INTERNAL = 1;
const KIND_CLIENT = 3;
const STATUS_ERROR = 2;

const LABEL_SECRET = "sk-proj-LABELSECRET0123456789abcdef";

async function exportScenario(
  receiver: OtlpReceiver,
  options: { captureContent?: boolean; maxContentChars?: number; question?: string } = {},
) {
  const telemetry = setupTelemetry({ serviceName: "exporters-test", url: receiver.url, shutdownTimeoutMs: 5000 });
  const { agent, cleanup } = scenarioAgent([
    new OpenTelemetryExtension({
      telemetry,
      captureContent: options.captureContent,
      maxContentChars: options.maxContentChars,
    }),
  ]);
  try {
    const result = await agent.run(options.question ?? "How are the regions?", {
      metadata: { "user.id": "u_42", ticket: 981, note: `key ${LABEL_SECRET}` },
      tags: ["vip"],
    });
    await agent.close();
    const stopped = await telemetry.shutdown();
    return { result, stopped, spans: receiver.spans.slice() };
  } finally {
    cleanup();
  }
}

function byName(spans: OtlpSpan[], name: string): OtlpSpan[] {
  return spans.filter((s) => s.name === name);
}

describe("live spans follow the GenAI conventions (real SDK, OTLP/HTTP to a local receiver)", () => {
  let receiver: OtlpReceiver;
  let spans: OtlpSpan[];
  before(async () => {
    receiver = await startOtlpReceiver();
    const out = await exportScenario(receiver);
    assert.equal(out.result.status, "completed");
    assert.deepEqual(out.stopped, { flushed: true, dropped: 0 });
    spans = out.spans;
  });
  after(() => receiver.close());

  test("one invoke_agent span per run, chat and execute_tool spans as its children", () => {
    const runs = byName(spans, `invoke_agent ${AGENT_NAME}`);
    assert.equal(runs.length, 1);
    const run = runs[0];
    assert.equal(run.parentSpanId, undefined);
    assert.equal(run.kind, KIND_INTERNAL);
    assert.equal(run.serviceName, "exporters-test");
    const chats = byName(spans, `chat ${MODEL}`);
    assert.equal(chats.length, 3, "three model calls (the 429 is retried inside the first)");
    const tools = spans.filter((s) => s.name.startsWith("execute_tool "));
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "execute_tool big",
      "execute_tool broken",
      "execute_tool forbidden",
      "execute_tool lookup",
      "execute_tool lookup",
    ]);
    assert.equal(spans.length, 1 + 3 + 5);
    for (const child of [...chats, ...tools]) {
      assert.equal(child.parentSpanId, run.spanId, `${child.name} hangs under the run span`);
      assert.equal(child.traceId, run.traceId);
    }
    for (const c of chats) assert.equal(c.kind, KIND_CLIENT);
    for (const t of tools) assert.equal(t.kind, KIND_INTERNAL);
  });

  test("parallel tool calls are overlapping siblings, not nested", () => {
    const [a, b] = byName(spans, "execute_tool lookup");
    assert.equal(a.parentSpanId, b.parentSpanId);
    assert.ok(
      BigInt(a.startTimeUnixNano) < BigInt(b.endTimeUnixNano) &&
        BigInt(b.startTimeUnixNano) < BigInt(a.endTimeUnixNano),
      "the two lookups ran at the same time",
    );
  });

  test("run, chat and tool attributes", () => {
    const run = byName(spans, `invoke_agent ${AGENT_NAME}`)[0]!;
    assert.equal(run.attributes["gen_ai.operation.name"], "invoke_agent");
    assert.equal(run.attributes["gen_ai.agent.name"], AGENT_NAME);
    assert.equal(run.attributes["gen_ai.provider.name"], "scripted");
    assert.equal(run.attributes["gen_ai.conversation.id"], "session-42");
    assert.equal(run.attributes["gen_ai.usage.input_tokens"], 620);
    assert.equal(run.attributes["harnessx.run.status"], "completed");
    // The run's metadata and tags: under harnessx's names, `user.id` under the convention's too, redacted.
    assert.equal(run.attributes["user.id"], "u_42");
    assert.equal(run.attributes["harnessx.run.metadata.ticket"], 981);
    assert.deepEqual(run.attributes["harnessx.run.tags"], ["vip"]);
    assert.ok(!JSON.stringify(spans).includes(LABEL_SECRET));

    const chats = byName(spans, `chat ${MODEL}`).sort((x, y) =>
      Number(BigInt(x.startTimeUnixNano) - BigInt(y.startTimeUnixNano)),
    );
    const first = chats[0];
    assert.equal(first.attributes["gen_ai.operation.name"], "chat");
    assert.equal(first.attributes["gen_ai.provider.name"], "scripted");
    assert.equal(first.attributes["gen_ai.request.model"], MODEL);
    assert.equal(first.attributes["gen_ai.request.max_tokens"], 1024);
    assert.equal(first.attributes["gen_ai.request.temperature"], 0.2);
    assert.equal(first.attributes["gen_ai.conversation.id"], "session-42");
    assert.deepEqual(first.attributes["gen_ai.response.finish_reasons"], ["tool_use"]);
    assert.equal(first.attributes["gen_ai.response.id"], "scripted-2");
    assert.equal(first.attributes["gen_ai.response.model"], MODEL);
    assert.equal(first.attributes["gen_ai.usage.input_tokens"], 120);
    assert.equal(first.attributes["gen_ai.usage.output_tokens"], 30);
    assert.equal(first.attributes["gen_ai.usage.cache_read.input_tokens"], 100);
    assert.equal(chats[1].attributes["gen_ai.usage.cache_creation.input_tokens"], 50);
    assert.deepEqual(chats[2].attributes["gen_ai.response.finish_reasons"], ["end_turn"]);

    const lookups = byName(spans, "execute_tool lookup");
    assert.deepEqual(lookups.map((s) => s.attributes["gen_ai.tool.call.id"]).sort(), ["call_a", "call_b"]);
    for (const s of lookups) {
      assert.equal(s.attributes["gen_ai.operation.name"], "execute_tool");
      assert.equal(s.attributes["gen_ai.tool.name"], "lookup");
      assert.equal(s.status.code, 0);
    }
  });

  test("failures: ERROR status with error.type; the retry and the denial are span events", () => {
    const brokenSpan = byName(spans, "execute_tool broken")[0];
    assert.equal(brokenSpan.status.code, STATUS_ERROR);
    assert.equal(brokenSpan.attributes["error.type"], "failed");
    assert.match(brokenSpan.status.message ?? "", /backend unavailable/);

    const denied = byName(spans, "execute_tool forbidden")[0];
    assert.equal(denied.status.code, STATUS_ERROR);
    assert.equal(denied.attributes["error.type"], "denied");
    const denial = denied.events.find((e) => e.name === "harnessx.policy_denied");
    assert.ok(denial, "the denial is an event of the tool span");
    assert.match(String(denial.attributes["harnessx.permission.reason"]), /forbidden by policy/);

    const chats = byName(spans, `chat ${MODEL}`);
    const retried = chats.filter((c) => c.events.some((e) => e.name === "harnessx.retry"));
    assert.equal(retried.length, 1);
    const retry = retried[0].events.find((e) => e.name === "harnessx.retry")!;
    assert.equal(retry.attributes["error.type"], "provider_rate_limit");
    assert.equal(retry.attributes["harnessx.retry.attempt"], 1);
  });

  test("a spilled result is a reference (resultId, bytes), and content is absent by default", () => {
    const bigSpan = byName(spans, "execute_tool big")[0];
    assert.equal(bigSpan.attributes["harnessx.result.spilled"], true);
    assert.match(String(bigSpan.attributes["harnessx.result.id"]), /\S/);
    assert.ok(Number(bigSpan.attributes["harnessx.result.bytes"]) > 2000);
    for (const s of spans) {
      for (const key of [
        "gen_ai.input.messages",
        "gen_ai.output.messages",
        "gen_ai.system_instructions",
        "gen_ai.tool.definitions",
        "gen_ai.tool.call.arguments",
        "gen_ai.tool.call.result",
      ]) {
        assert.equal(s.attributes[key], undefined, `${key} on ${s.name}`);
      }
    }
    assert.ok(!receiver.bodies.join("").includes(BIG_MARKER));
  });
});

describe("content capture (opt-in) keeps the conventions' JSON shapes, truncated per part", () => {
  let receiver: OtlpReceiver;
  let spans: OtlpSpan[];
  before(async () => {
    receiver = await startOtlpReceiver();
    spans = (await exportScenario(receiver, { captureContent: true, maxContentChars: 200, question: LONG_QUESTION }))
      .spans;
  });
  after(() => receiver.close());

  test("input and output messages are valid JSON in the GenAI message schema", () => {
    const chats = byName(spans, `chat ${MODEL}`).sort((x, y) =>
      Number(BigInt(x.startTimeUnixNano) - BigInt(y.startTimeUnixNano)),
    );
    const input = JSON.parse(String(chats[1].attributes["gen_ai.input.messages"])) as Array<{
      role: string;
      parts: Array<Record<string, unknown>>;
    }>;
    assert.deepEqual(
      input.map((m) => m.role),
      ["user", "assistant", "tool"],
    );
    assert.deepEqual(
      input[1].parts.map((p) => p.type),
      ["text", "tool_call", "tool_call"],
    );
    assert.deepEqual(input[1].parts[1], {
      type: "tool_call",
      id: "call_a",
      name: "lookup",
      arguments: { region: "eu" },
    });
    assert.deepEqual(
      input[2].parts.map((p) => [p.type, p.id]),
      [
        ["tool_call_response", "call_a"],
        ["tool_call_response", "call_b"],
      ],
    );
    const output = JSON.parse(String(chats[0].attributes["gen_ai.output.messages"])) as Array<{
      role: string;
      finish_reason: string;
      parts: unknown[];
    }>;
    assert.equal(output[0].role, "assistant");
    assert.equal(output[0].finish_reason, "tool_call");
    const defs = JSON.parse(String(chats[0].attributes["gen_ai.tool.definitions"])) as Array<{
      type: string;
      name: string;
    }>;
    assert.ok(defs.some((d) => d.type === "function" && d.name === "lookup"));
  });

  test("a long part is cut, marked, and keeps its original size", () => {
    const chat = byName(spans, `chat ${MODEL}`)[0];
    const input = JSON.parse(String(chat.attributes["gen_ai.input.messages"])) as Array<{
      parts: Array<{ content: string; truncated?: boolean; original_chars?: number }>;
    }>;
    const part = input[0].parts[0];
    assert.equal(part.content.length, 200);
    assert.equal(part.truncated, true);
    assert.equal(part.original_chars, LONG_QUESTION.length);
  });

  test("tool arguments and results are JSON; the spilled result is only its reference", () => {
    const lookup = byName(spans, "execute_tool lookup").find((s) => s.attributes["gen_ai.tool.call.id"] === "call_a")!;
    assert.deepEqual(JSON.parse(String(lookup.attributes["gen_ai.tool.call.arguments"])), { region: "eu" });
    assert.equal(JSON.parse(String(lookup.attributes["gen_ai.tool.call.result"])), "eu: up");
    const bigSpan = byName(spans, "execute_tool big")[0];
    const ref = JSON.parse(String(bigSpan.attributes["gen_ai.tool.call.result"])) as Record<string, unknown>;
    assert.deepEqual(Object.keys(ref).sort(), ["bytes", "resultId"]);
    assert.equal(ref.resultId, bigSpan.attributes["harnessx.result.id"]);
    assert.ok(!receiver.bodies.join("").includes(BIG_MARKER), "the spilled content never reaches the backend");
  });
});
