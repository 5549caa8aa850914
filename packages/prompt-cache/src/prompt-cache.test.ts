import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Agent,
  MiddlewareError,
  ScriptedProvider,
  tool,
  type AgentOptions,
  type Message,
  type ScriptStep,
} from "@harnessx/core";
import {
  ALL_HOOK_EVENTS,
  defineExtension,
  HookEvent,
  MiddlewarePipeline,
  type MiddlewareLike,
  type PromptCacheBreak,
} from "@harnessx/core/extension";
import { mapSpans, type TraceEvent } from "@harnessx/core/tracing";
import { promptCacheExtension } from "./prompt-cache-extension.js";

const lookup = tool({ name: "lookup", description: "looks things up", execute: () => "found" });
const search = tool({ name: "search", description: "searches", execute: () => "none" });
const callLookup = (n: number): ScriptStep => ({ toolCalls: [{ name: "lookup", input: { n } }] });

/** An agent with the extension, its provider keeping requests, and the cache breaks it reported. */
function setup(steps: ScriptStep[], options: Partial<AgentOptions> & { before?: MiddlewareLike[] } = {}) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const { before = [], ...rest } = options;
  const middleware = new MiddlewarePipeline();
  for (const mw of before) middleware.add(mw);
  const agent = new Agent({
    limits: { repetition: false },
    provider,
    system: "You are terse.",
    tools: [lookup, search],
    extensions: [promptCacheExtension()],
    middleware,
    ...rest,
  });
  const breaks: PromptCacheBreak[] = [];
  agent.hooks.on(HookEvent.CUSTOM, (ctx) => {
    if (ctx.data.name === "prompt_cache_break") breaks.push(ctx.data.data as PromptCacheBreak);
  });
  return { provider, agent, breaks };
}

describe("promptCacheExtension places cache breakpoints on the stable prefix", () => {
  test("tools, system prompt and the two newest messages, on the request the provider gets and on LLM_REQUEST", async () => {
    const { provider, agent } = setup([callLookup(1), { text: "done" }]);
    const announced: unknown[] = [];
    agent.hooks.on(HookEvent.LLM_REQUEST, (ctx) => void announced.push(ctx.data.request.cacheBreakpoints));
    assert.equal((await agent.run("go")).status, "completed");
    const [first, second] = provider.requests;
    assert.ok(first && second, "two model calls");
    assert.deepEqual(first.cacheBreakpoints, [{ after: "tools" }, { after: "system" }, { after: "message", index: 0 }]);
    assert.equal(second.messages.length, 3);
    assert.deepEqual(second.cacheBreakpoints, [
      { after: "tools" },
      { after: "system" },
      { after: "message", index: 1 },
      { after: "message", index: 2 },
    ]);
    assert.deepEqual(announced, [first.cacheBreakpoints, second.cacheBreakpoints]);
  });

  test("without the extension a request carries no breakpoints", async () => {
    const provider = new ScriptedProvider([{ text: "hi" }], { recordRequests: true });
    await new Agent({ provider }).run("go");
    assert.equal(provider.requests[0]!.cacheBreakpoints, undefined);
  });

  test("a middleware placing a breakpoint past the history fails the run with a MiddlewareError naming it", async () => {
    const wrong: MiddlewareLike = {
      name: "off-by-one",
      placeCacheBreakpoints: async (request) => [{ after: "message", index: request.messages.length }],
    };
    const { agent } = setup([{ text: "hi" }], { before: [wrong] });
    const result = await agent.run("go");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof MiddlewareError, String(result.error));
    assert.match(result.error.message, /off-by-one.*placeCacheBreakpoints.*index 1; the request has 1 message/);
  });

  test("historyBreakpoints outside 0..2 is a ConfigError", () => {
    assert.throws(
      () => promptCacheExtension({ historyBreakpoints: 3 as 2 }),
      /historyBreakpoints must be 0, 1 or 2; got 3/,
    );
  });
});

describe("a prefix change between two calls of a run is a prompt_cache_break event naming what changed", () => {
  test("a tool loop that only appends to the history breaks nothing", async () => {
    const { breaks, agent } = setup([callLookup(1), callLookup(2), { text: "done" }]);
    assert.equal((await agent.run("go")).status, "completed");
    assert.deepEqual(breaks, []);
  });

  test("a middleware copying the history with the same content breaks nothing", async () => {
    const copying: MiddlewareLike = {
      name: "copier",
      beforeLlmCall: async (messages, tools) => [messages.map((m) => structuredClone(m) as Message), tools],
    };
    const { breaks, agent } = setup([callLookup(1), { text: "done" }], { before: [copying] });
    assert.equal((await agent.run("go")).status, "completed");
    assert.deepEqual(breaks, []);
  });

  test("a middleware rewriting an older message is reported as the history change, by name", async () => {
    let call = 0;
    const stamping: MiddlewareLike = {
      name: "timestamp-injector",
      beforeLlmCall: async (messages, tools) => {
        call++;
        const [first, ...rest] = messages;
        const stamped: Message = { role: "user", content: [{ type: "text", text: `[call ${call}] go` }] };
        return [first ? [stamped, ...rest] : messages, tools];
      },
    };
    const { breaks, agent } = setup([callLookup(1), { text: "done" }], { before: [stamping] });
    assert.equal((await agent.run("go")).status, "completed");
    assert.equal(breaks.length, 1);
    assert.deepEqual(breaks[0]!.changed, ["history"]);
    assert.deepEqual(breaks[0]!.history, {
      firstChangedMessage: 0,
      cause: "middleware",
      rewrittenBy: ["timestamp-injector"],
    });
    assert.equal(breaks[0]!.prefixKey, breaks[0]!.previousPrefixKey);
  });

  test("a break is a span event of the run span in the one span mapping", async () => {
    let call = 0;
    const narrowing: MiddlewareLike = {
      name: "narrower",
      beforeLlmCall: async (messages, tools) => [
        ++call > 1 ? messages.slice(1) : messages,
        call > 1 ? tools.filter((t) => t.name !== "search") : tools,
      ],
    };
    const { agent } = setup([callLookup(1), { text: "done" }], { before: [narrowing] });
    const events: TraceEvent[] = [];
    for (const kind of ALL_HOOK_EVENTS)
      agent.hooks.on(
        kind,
        (ctx) => void events.push({ kind, ts: Date.now(), runId: ctx.runId, data: ctx.data } as TraceEvent),
      );
    assert.equal((await agent.run("go")).status, "completed");
    const run = mapSpans(events).find((s) => s.role === "agent")!;
    const reported = run.events.filter((e) => e.name === "harnessx.prompt_cache_break").map((e) => e.attributes);
    const { "harnessx.prompt_cache.system_first_difference": at, ...rest } = reported[0] ?? {};
    assert.ok(typeof at === "number" && at > 0, "where the tool section of the system prompt changed");
    assert.deepEqual(
      [rest, reported.length],
      [
        {
          "harnessx.prompt_cache.changed": ["tools", "system", "history"],
          "harnessx.prompt_cache.tools_removed": ["search"],
          "harnessx.prompt_cache.history_first_changed_message": 0,
          "harnessx.prompt_cache.history_cause": "middleware",
          "harnessx.prompt_cache.history_rewritten_by": ["narrower"],
        },
        1,
      ],
    );
  });

  test("a tool list that changes is reported as tools and system (the prompt lists the tools), with the tool named", async () => {
    let call = 0;
    const narrowing: MiddlewareLike = {
      name: "narrower",
      beforeLlmCall: async (messages, tools) => [
        messages,
        ++call > 1 ? tools.filter((t) => t.name !== "search") : tools,
      ],
    };
    const { breaks, agent } = setup([callLookup(1), { text: "done" }], { before: [narrowing] });
    assert.equal((await agent.run("go")).status, "completed");
    assert.equal(breaks.length, 1);
    assert.deepEqual(breaks[0]!.changed, ["tools", "system"]);
    assert.deepEqual(breaks[0]!.tools, { added: [], removed: ["search"], changed: [] });
    assert.notEqual(breaks[0]!.prefixKey, breaks[0]!.previousPrefixKey);
    assert.equal(breaks[0]!.history, undefined);
  });

  test("a system prompt that changes is reported with where it changed", async () => {
    let call = 0;
    const clock = defineExtension("clock", (hx) => void hx.registerPromptProvider(() => `Call number ${++call}.`));
    const { breaks, agent } = setup([callLookup(1), { text: "done" }], { extensions: [promptCacheExtension(), clock] });
    assert.equal((await agent.run("go")).status, "completed");
    assert.equal(breaks.length, 1);
    assert.deepEqual(breaks[0]!.changed, ["system"]);
    assert.match(breaks[0]!.system?.now ?? "", /^2\./);
  });

  test("a compaction between calls is reported as the cause of the history change", async () => {
    // Compaction puts its summary into the first user message, so the whole history changes.
    const steps: ScriptStep[] = Array.from({ length: 12 }, (_, i) => ({
      toolCalls: [{ name: "lookup", input: { text: `message number ${i} `.repeat(20) } }],
    }));
    const { breaks, agent } = setup([...steps, { text: "done" }], { context: { contextBudgetTokens: 600 } });
    let condensed = 0;
    agent.hooks.on(HookEvent.CONTEXT_CONDENSED, () => void condensed++);
    assert.equal((await agent.run("go")).status, "completed");
    assert.ok(condensed >= 1);
    const history = breaks.filter((b) => b.changed.includes("history"));
    assert.equal(history.length, condensed);
    assert.ok(
      history.every((b) => b.history?.cause === "compaction"),
      JSON.stringify(history),
    );
  });
});
