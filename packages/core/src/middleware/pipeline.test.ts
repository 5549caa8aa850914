// How the pipeline runs its middleware: every stage in the order added, each receiving the one
// before's output; cache breakpoints replaced stage by stage; a response middleware holding back
// the stream; wrap stages nested around tool handlers and model calls.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { MiddlewareError } from "../errors.js";
import { ScriptedProvider } from "../providers/scripted.js";
import type { ToolCall, ToolResult } from "../types/content.js";
import type { ProviderResponse } from "../types/provider.js";
import { Middleware, type MiddlewareLike } from "./middleware.js";
import { MiddlewarePipeline } from "./pipeline.js";
import { echoTool } from "../test-support/helpers.js";
import { toolTurn } from "../test-support/tool-turn.js";

describe("ordering: added A then B, every stage runs A then B with B receiving A's output", () => {
  test("all four stages", async () => {
    const log: string[] = [];
    const tagger = (tag: string): MiddlewareLike => ({
      name: tag,
      async beforeLlmCall(messages, tools) {
        log.push(`${tag}:beforeLlm`);
        return [messages, tools];
      },
      async afterLlmCall(response) {
        log.push(`${tag}:afterLlm`);
        return {
          ...response,
          content: response.content.map((b) => (b.type === "text" ? { ...b, text: `${b.text}+${tag}` } : b)),
        };
      },
      async beforeToolExecution(call) {
        log.push(`${tag}:beforeTool`);
        return { ...call, input: { text: `${String(call.input.text)}${tag}` } };
      },
      async afterToolExecution(result) {
        log.push(`${tag}:afterTool`);
        return { ...result, content: `${result.content}|${tag}` };
      },
    });
    const pipeline = new MiddlewarePipeline();
    pipeline.add(tagger("A"));
    pipeline.add(tagger("B"));
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "x" } }] }, { text: "done" }], {
      recordRequests: true,
    });
    const agent = new Agent({ provider, tools: [echoTool], middleware: pipeline });
    const result = await agent.run("go");
    assert.deepEqual(log.slice(0, 6), [
      "A:beforeLlm",
      "B:beforeLlm",
      "A:afterLlm",
      "B:afterLlm",
      "A:beforeTool",
      "B:beforeTool",
    ]);
    assert.deepEqual(log.slice(6, 8), ["A:afterTool", "B:afterTool"]);
    assert.equal(result.text, "done+A+B");
    const toolResult = provider.requests[1].messages.at(-1)!.content[0] as { content: string };
    assert.equal(toolResult.content, "echo: xAB|A|B");
  });

  test("the Middleware base class passes everything through unchanged", async () => {
    const base = new Middleware();
    const call: ToolCall = { id: "1", name: "t", input: { a: 1 } };
    assert.equal(await base.beforeToolExecution(call), call);
    const result: ToolResult = { toolCallId: "1", name: "t", content: "c", isError: false };
    assert.equal(await base.afterToolExecution(result), result);
  });

  test("agent.middleware.add works between runs and its registration removes it", async () => {
    const provider = new ScriptedProvider([{ text: "one" }, { text: "two" }]);
    const agent = new Agent({ provider });
    class Shout extends Middleware {
      override async afterLlmCall(r: ProviderResponse) {
        return { ...r, content: r.content.map((b) => (b.type === "text" ? { ...b, text: b.text.toUpperCase() } : b)) };
      }
    }
    const reg = agent.middleware.add(new Shout());
    assert.equal((await agent.run("a")).text, "ONE");
    reg.close();
    reg.close();
    assert.equal((await agent.run("b")).text, "two");
  });
});

describe("placeCacheBreakpoints: each middleware replaces the previous one's breakpoints, which must fit the request", () => {
  const request = {
    model: "m",
    system: "s",
    messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }],
    tools: [],
    maxTokens: 10,
    stream: false,
  };

  test("B receives A's breakpoints and its answer is what the request carries, without extra fields", async () => {
    const pipeline = new MiddlewarePipeline();
    const seen: unknown[] = [];
    pipeline.add({ name: "A", placeCacheBreakpoints: async () => [{ after: "system" }] });
    pipeline.add({
      name: "B",
      placeCacheBreakpoints: async (req) => {
        seen.push(req.cacheBreakpoints);
        return [...(req.cacheBreakpoints ?? []), { after: "message", index: 0, note: "x" } as never];
      },
    });
    pipeline.add(new Middleware());
    assert.deepEqual(await pipeline.placeCacheBreakpoints(request), [
      { after: "system" },
      { after: "message", index: 0 },
    ]);
    assert.deepEqual(seen, [[{ after: "system" }]]);
  });

  test("an answer that is not a list of breakpoints is a MiddlewareError naming the middleware", async () => {
    for (const [answer, problem] of [
      [undefined, /must return an array of cache breakpoints; got undefined/],
      [[{ after: "everything" }], /a cache breakpoint is \{ after: "tools" \}/],
      [[{ after: "message", index: -1 }], /index -1; the request has 1 message/],
    ] as const) {
      const pipeline = new MiddlewarePipeline();
      pipeline.add({ name: "bad-cache", placeCacheBreakpoints: async () => answer as never });
      await assert.rejects(
        pipeline.placeCacheBreakpoints(request),
        (e: unknown) => e instanceof MiddlewareError && /bad-cache/.test(e.message) && problem.test(e.message),
      );
    }
  });
});

describe("streaming with a response middleware", () => {
  test("deltas are held until afterLlmCall returns and the processed text is what streams", async () => {
    const provider = new ScriptedProvider([{ text: "secret token abc123 here" }]);
    const agent = new Agent({ provider });
    agent.middleware.add({
      name: "Redact",
      afterLlmCall: async (r: ProviderResponse) => ({
        ...r,
        content: r.content.map((b) => (b.type === "text" ? { ...b, text: b.text.replace("abc123", "[x]") } : b)),
      }),
    });
    let streamed = "";
    for await (const e of agent.runStream("x")) if (e.type === "text_delta") streamed += e.text;
    assert.equal(streamed, "secret token [x] here");
  });

  test("without a response middleware, text streams in several deltas", async () => {
    const agent = new Agent({ provider: new ScriptedProvider([{ text: "a long enough reply to be chunked" }]) });
    agent.middleware.add(new Middleware());
    let deltas = 0;
    for await (const e of agent.runStream("x")) if (e.type === "text_delta") deltas++;
    assert.ok(deltas > 1);
  });
});

describe("wrap stages run around tool handlers and model calls", () => {
  test("A wraps B wraps the handler; an AsyncLocalStorage value set by a wrapper is seen inside the handler", async () => {
    const { AsyncLocalStorage } = await import("node:async_hooks");
    const als = new AsyncLocalStorage<string>();
    const { tool } = await import("../tools/tool.js");
    const log: string[] = [];
    const seenInside: Array<string | undefined> = [];
    const probe = tool({
      name: "probe",
      description: "p",
      execute: async () => {
        seenInside.push(als.getStore());
        return "ok";
      },
    });
    const wrapper = (tag: string): MiddlewareLike => ({
      name: tag,
      async wrapToolExecution(call, execute) {
        log.push(`${tag} in ${call.name}`);
        const out = await als.run(tag, execute);
        log.push(`${tag} out`);
        return out;
      },
      async wrapModelCall(request, send) {
        log.push(`${tag} model ${request.model}`);
        return send();
      },
    });
    const agent = new Agent({
      provider: new ScriptedProvider([{ toolCalls: [{ name: "probe" }] }, { text: "ok" }], { model: "m1" }),
      tools: [probe],
    });
    agent.middleware.add(wrapper("A"));
    agent.middleware.add(wrapper("B"));
    assert.equal((await agent.run("x")).status, "completed");
    assert.deepEqual(log, [
      "A model m1",
      "B model m1",
      "A in probe",
      "B in probe",
      "B out",
      "A out",
      "A model m1",
      "B model m1",
    ]);
    assert.deepEqual(seenInside, ["B"]);
  });

  test("provider errors pass through a model wrapper unchanged; a wrapper's own exception fails the run naming it", async () => {
    const passthrough = new Agent({ provider: new ScriptedProvider([{ error: { status: 401 } }]) });
    passthrough.middleware.add({ name: "Pass", wrapModelCall: (_r, send) => send() });
    const failed = await passthrough.run("x");
    assert.equal(failed.error?.code, "provider_auth");

    const broken = new Agent({ provider: toolTurn(), tools: [echoTool] });
    broken.middleware.add({
      name: "Broken",
      wrapToolExecution: async () => {
        throw new Error("no span");
      },
    });
    const result = await broken.run("x");
    assert.ok(result.error instanceof MiddlewareError);
    assert.match(result.error.message, /"Broken" \(wrapToolExecution\): no span/);
  });
});
