import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, type AgentOptions } from "../engine/agent.js";
import { ExtensionError } from "../errors.js";
import { defineExtension } from "../extensions/extension.js";
import { ALL_HOOK_EVENTS, HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import type { SpanIdSource, SpanIds, SpanStart } from "./id-source.js";
import { currentScope } from "./scopes.js";
import { isSpanId, isTraceId, newSpanId, type SpanContext } from "./span-context.js";

interface Stamped {
  event: HookEvent;
  span: SpanContext | undefined;
  callId?: string;
}

function stamps(agent: Agent): Stamped[] {
  const seen: Stamped[] = [];
  for (const event of ALL_HOOK_EVENTS) {
    agent.hooks.on(event, (ctx) => {
      const data = ctx.data as { toolCall?: { id: string } };
      seen.push({ event, span: ctx.span, ...(data?.toolCall ? { callId: data.toolCall.id } : {}) });
    });
  }
  return seen;
}

const wait = tool({
  name: "wait",
  description: "w",
  concurrent: true,
  execute: async ({ ms }) => {
    await new Promise((r) => setTimeout(r, Number(ms)));
    return `span ${currentScope()?.span.spanId}`;
  },
});

function concurrentAgent(extensions: AgentOptions["extensions"] = []) {
  const provider = new ScriptedProvider(
    [
      {
        toolCalls: [
          { name: "wait", input: { ms: 30 } },
          { name: "wait", input: { ms: 1 } },
        ],
      },
      { text: "ok" },
    ],
    { recordRequests: true },
  );
  return { agent: new Agent({ provider, tools: [wait], extensions }), provider };
}

describe("core stamps every hook context with its span", () => {
  test("run, model-call and concurrent tool-call events carry W3C ids of one trace, parented to the run", async () => {
    const { agent, provider } = concurrentAgent();
    const seen = stamps(agent);
    await agent.run("x");
    const run = seen.find((s) => s.event === HookEvent.AGENT_START)!.span!;
    assert.ok(isTraceId(run.traceId) && isSpanId(run.spanId) && run.role === "agent" && run.parentSpanId === undefined);
    for (const s of seen) assert.equal(s.span?.traceId, run.traceId, `${s.event} is in the run's trace`);
    assert.deepEqual(seen.find((s) => s.event === HookEvent.AGENT_END)!.span, run);

    const requests = seen.filter((s) => s.event === HookEvent.LLM_REQUEST).map((s) => s.span!);
    const responses = seen.filter((s) => s.event === HookEvent.LLM_RESPONSE).map((s) => s.span!);
    assert.equal(requests.length, 2);
    assert.deepEqual(responses, requests, "a response carries its request's span");
    assert.notEqual(requests[0].spanId, requests[1].spanId);
    for (const chat of requests) assert.ok(chat.role === "chat" && chat.parentSpanId === run.spanId);

    const tools = seen.filter((s) => s.event === HookEvent.TOOL_CALL_START || s.event === HookEvent.TOOL_CALL_END);
    const byCall = new Map<string, Set<string>>();
    for (const t of tools) byCall.set(t.callId!, (byCall.get(t.callId!) ?? new Set()).add(t.span!.spanId));
    assert.equal(byCall.size, 2);
    for (const ids of byCall.values()) assert.equal(ids.size, 1, "start and end of one call share its span");
    const [a, b] = [...byCall.values()].map((ids) => [...ids][0]);
    assert.notEqual(a, b, "concurrent calls have spans of their own");
    for (const t of tools) assert.ok(t.span!.role === "tool" && t.span!.parentSpanId === run.spanId);

    // Inside each handler the current scope is that call's span, though the two ran interleaved.
    const results = provider.requests[1].messages
      .at(-1)!
      .content.map((block) => (block.type === "tool_result" ? block.content : ""));
    const starts = tools.filter((t) => t.event === HookEvent.TOOL_CALL_START);
    assert.deepEqual(
      results,
      starts.map((t) => `span ${t.span!.spanId}`),
    );
  });

  test("a resumed run keeps its span; each run of an agent gets a trace of its own", async () => {
    const del = tool({ name: "rm", description: "rm", permission: "ask", execute: () => "gone" });
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "rm", input: {} }] }, { text: "done" }, { text: "again" }]),
      tools: [del],
    });
    const seen = stamps(agent);
    const first = await agent.run("x");
    await agent.resume({ [first.pending[0].id]: "approve" });
    const starts = seen.filter((s) => s.event === HookEvent.AGENT_START).map((s) => s.span!);
    assert.equal(starts.length, 2);
    assert.deepEqual(starts[1], starts[0], "the resumed run is the same span");
    await agent.run("y");
    const third = seen.filter((s) => s.event === HookEvent.AGENT_START).at(-1)!.span!;
    assert.notEqual(third.traceId, starts[0].traceId);
  });

  test("an agent run inside another agent's tool call nests under that call's span", async () => {
    const inner = new Agent({ name: "inner", provider: new ScriptedProvider([{ text: "inner done" }]) });
    const innerSeen = stamps(inner);
    const delegate = tool({ name: "delegate", description: "d", execute: async () => (await inner.run("sub")).text });
    const outer = new Agent({
      name: "outer",
      provider: new ScriptedProvider([{ toolCalls: [{ name: "delegate", input: {} }] }, { text: "ok" }]),
      tools: [delegate],
    });
    const outerSeen = stamps(outer);
    await outer.run("x");
    const call = outerSeen.find((s) => s.event === HookEvent.TOOL_CALL_START)!.span!;
    const innerRun = innerSeen.find((s) => s.event === HookEvent.AGENT_START)!.span!;
    assert.equal(innerRun.traceId, call.traceId);
    assert.equal(innerRun.parentSpanId, call.spanId);
  });
});

/** An id source that starts spans of its own under the parent it is told of, as an OpenTelemetry one does. */
function recordingSource(answer?: (start: SpanStart) => SpanIds | undefined) {
  const starts: SpanStart[] = [];
  const source: SpanIdSource = {
    open(start) {
      starts.push(start);
      return answer
        ? answer(start)
        : {
            traceId: start.parent?.traceId ?? "4bf92f3577b34da6a3ce929d0e0e4736",
            spanId: newSpanId(),
            parentSpanId: "00f067aa0ba902b7",
          };
    },
  };
  return { source, starts };
}

const sourceExtension = (source: SpanIdSource) =>
  defineExtension({ name: "ids", install: (ctx) => void ctx.useSpanIds(source) });

describe("an id source gives core its span ids", () => {
  test("the source's ids are the ids every hook context carries; a root run keeps the source's outer parent", async () => {
    const { source, starts } = recordingSource();
    const { agent } = concurrentAgent([sourceExtension(source)]);
    const seen = stamps(agent);
    await agent.run("x");
    assert.deepEqual(
      starts.map((s) => s.role),
      ["agent", "chat", "tool", "tool", "chat"],
    );
    assert.deepEqual(
      starts.map((s) => s.name),
      ["invoke_agent agent", "chat scripted-model", "execute_tool wait", "execute_tool wait", "chat scripted-model"],
    );
    const run = seen[0].span!;
    assert.equal(run.traceId, "4bf92f3577b34da6a3ce929d0e0e4736");
    assert.equal(run.parentSpanId, "00f067aa0ba902b7", "a run under no harnessx span sits under the source's own");
    for (const start of starts.slice(1))
      assert.deepEqual(start.parent, run, "children are opened under the run's span");
    const chat = seen.find((s) => s.event === HookEvent.LLM_REQUEST)!.span!;
    assert.equal(chat.parentSpanId, run.spanId, "a child's parent is core's, never the source's word");
  });

  for (const [what, answer] of [
    [
      "throws",
      () => {
        throw new Error("tracer down");
      },
    ],
    ["answers nothing", () => undefined],
    ["gives ids that are not W3C-shaped", () => ({ traceId: "xyz", spanId: "1" })],
    ["gives the all-zero (invalid) ids of a no-op tracer", () => ({ traceId: "0".repeat(32), spanId: "0".repeat(16) })],
    [
      "gives a child its parent's own id (a no-op tracer's child)",
      (s: SpanStart) => (s.parent ? { traceId: s.parent.traceId, spanId: s.parent.spanId } : undefined),
    ],
    [
      "puts a child in another trace",
      (s: SpanStart) => (s.parent ? { traceId: "1".repeat(32), spanId: newSpanId() } : undefined),
    ],
  ] as const) {
    test(`a source that ${what} leaves core to generate the ids; the run goes on`, async () => {
      const { source } = recordingSource(answer as (s: SpanStart) => SpanIds | undefined);
      const { agent } = concurrentAgent([sourceExtension(source)]);
      const seen = stamps(agent);
      const result = await agent.run("x");
      assert.equal(result.status, "completed");
      const run = seen[0].span!;
      const spanIds = new Set(seen.map((s) => s.span!.spanId));
      assert.equal(spanIds.size, 5, "run, two model calls, two tool calls: five distinct spans");
      for (const s of seen) {
        assert.ok(isTraceId(s.span!.traceId) && isSpanId(s.span!.spanId));
        assert.equal(s.span!.traceId, run.traceId);
      }
    });
  }

  test("only one extension may give span ids", () => {
    const { source } = recordingSource();
    assert.throws(
      () =>
        new Agent({
          provider: new ScriptedProvider([]),
          extensions: [
            sourceExtension(source),
            defineExtension({ name: "ids2", install: (ctx) => void ctx.useSpanIds(source) }),
          ],
        }),
      (err: unknown) => err instanceof ExtensionError && /only one extension may provide span ids/.test(err.message),
    );
  });
});
