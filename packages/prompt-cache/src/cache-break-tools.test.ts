// A tool is part of the cached prefix by its name, description and input schema: a change to the
// schema alone breaks the provider's cache as surely as a new description does.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, prefixKey, ScriptedProvider, tool, type ToolDefinition } from "@harnessx/core";
import { HookEvent, MiddlewarePipeline, type MiddlewareLike, type PromptCacheBreak } from "@harnessx/core/extension";
import { cacheBreakBetween, type SentPrefix } from "./cache-break.js";
import { promptCacheExtension } from "./prompt-cache-extension.js";

const SCHEMA = { type: "object", properties: { q: { type: "string" } } };
const WIDER = { type: "object", properties: { q: { type: "string" }, limit: { type: "number" } } };
const lookup: ToolDefinition = { name: "lookup", description: "looks things up", inputSchema: SCHEMA };

const sent = (tools: ToolDefinition[], system = "You are terse."): SentPrefix => ({
  prefixKey: prefixKey(system, tools),
  system,
  tools,
  messages: [],
});

describe("a tool whose input schema changes, its description not", () => {
  test("changes the prefix key", () => {
    assert.notEqual(prefixKey("s", [{ ...lookup, inputSchema: WIDER }]), prefixKey("s", [lookup]));
    assert.equal(
      prefixKey("s", [{ ...lookup, inputSchema: structuredClone(SCHEMA) }]),
      prefixKey("s", [lookup]),
      "an equal schema is the same prefix",
    );
  });

  test("is a tools break naming the tool", () => {
    const found = cacheBreakBetween(sent([lookup]), sent([{ ...lookup, inputSchema: WIDER }]), { compacted: false });
    assert.deepEqual(found?.changed, ["tools"]);
    assert.deepEqual(found?.tools, { added: [], removed: [], changed: ["lookup"] });
  });

  test("an equal copy of the tool breaks nothing", () => {
    assert.equal(cacheBreakBetween(sent([lookup]), sent([structuredClone(lookup)]), { compacted: false }), undefined);
  });

  test("a middleware widening a schema between two calls of a run is reported as a prompt_cache_break", async () => {
    let call = 0;
    const widen: MiddlewareLike = {
      name: "widener",
      beforeLlmCall: async (messages, tools) => [
        messages,
        ++call > 1 ? tools.map((t) => (t.name === "lookup" ? { ...t, inputSchema: WIDER } : t)) : tools,
      ],
    };
    const middleware = new MiddlewarePipeline();
    middleware.add(widen);
    const looksUp = tool({
      name: "lookup",
      description: "looks things up",
      inputSchema: SCHEMA,
      execute: () => "found",
    });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "lookup", input: { q: "x" } }] }, { text: "done" }], {
      recordRequests: true,
    });
    const agent = new Agent({
      provider,
      system: "You are terse.",
      tools: [looksUp],
      extensions: [promptCacheExtension()],
      middleware,
    });
    const breaks: PromptCacheBreak[] = [];
    agent.hooks.on(
      HookEvent.CUSTOM,
      (ctx) => void (ctx.data.name === "prompt_cache_break" && breaks.push(ctx.data.data as PromptCacheBreak)),
    );
    assert.equal((await agent.run("go")).status, "completed");
    assert.equal(
      provider.requests[0]!.tools[0]!.description,
      provider.requests[1]!.tools[0]!.description,
      "the description did not change",
    );
    assert.equal(breaks.length, 1);
    assert.deepEqual(breaks[0]!.tools, { added: [], removed: [], changed: ["lookup"] });
    assert.notEqual(breaks[0]!.prefixKey, breaks[0]!.previousPrefixKey);
  });
});
