// What goes wrong in the agent loop and how it ends: invalid tool input, unknown tools and
// throwing handlers reported to the model, which goes on; bad providers give a failed result with
// a typed error, never an unhandled rejection.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { Agent } from "./agent.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { ProviderError } from "../errors.js";
import type { ModelProvider, ProviderResponse } from "../types/provider.js";
import { echoTool, ofKind, recordEvents, scriptedAgent } from "../test-support/helpers.js";

describe("invalid tool input is reported to the model, which can correct itself", () => {
  test("a schema violation becomes an error result naming the problem, and the corrected call runs", async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: "echo", input: { text: 42 } }] },
      { toolCalls: [{ name: "echo", input: { text: "fixed" } }] },
      { text: "done" },
    ]);
    const agent = new Agent({ provider, tools: [echoTool] });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    const ends = ofKind(seen, HookEvent.TOOL_CALL_END);
    assert.equal(ends[0]!.outcome, "invalid_input");
    assert.equal(ends[0]!.result.isError, true);
    assert.match(ends[0]!.result.content, /input\.text must be string/);
    assert.equal(ends[1]!.result.content, "echo: fixed");
  });

  test("zod schemas are converted for providers and validate input", async () => {
    const add = tool({
      name: "add",
      description: "add two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => String(a + b),
    });
    assert.equal((add.definition.inputSchema as { type: string }).type, "object");
    assert.deepEqual(Object.keys((add.definition.inputSchema as { properties: object }).properties), ["a", "b"]);
    const provider = new ScriptedProvider(
      [
        {
          toolCalls: [
            { name: "add", input: { a: 1, b: "x" } },
            { name: "add", input: { a: 2, b: 3 } },
          ],
        },
        { text: "ok" },
      ],
      { recordRequests: true },
    );
    await new Agent({ provider, tools: [add] }).run("x");
    const [bad, good] = provider.requests[1]!.messages.at(-1)!.content as Array<{ content: string; isError: boolean }>;
    assert.equal(bad!.isError, true);
    assert.match(bad!.content, /input\.b/);
    assert.equal(good!.content, "5");
  });

  test("a tool name the model made up gets an error result listing the real tools", async () => {
    const provider = new ScriptedProvider(
      [{ toolCalls: [{ name: "hack_the_planet", input: {} }] }, { text: "sorry" }],
      { recordRequests: true },
    );
    const result = await new Agent({ provider, tools: [echoTool] }).run("x");
    assert.equal(result.status, "completed");
    const block = provider.requests[1]!.messages.at(-1)!.content[0] as { content: string; isError: boolean };
    assert.equal(block.isError, true);
    assert.match(block.content, /no tool named "hack_the_planet".*echo/);
  });

  test("a throwing handler becomes an isError result and the run goes on", async () => {
    const boom = tool({
      name: "boom",
      description: "fails",
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "boom" }] }, { text: "handled" }]);
    const agent = new Agent({ provider, tools: [boom] });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0]!;
    assert.equal(end.outcome, "failed");
    assert.equal(end.result.content, "Error: disk on fire");
    assert.ok(end.rawResult instanceof Error);
  });
});

describe("bad providers give a failed result with a typed error, never an unhandled rejection", () => {
  test("a provider returning garbage", async () => {
    const garbage: ModelProvider = {
      name: "junk",
      complete: async () => ({ hello: "world" }) as unknown as ProviderResponse,
    };
    const result = await new Agent({ provider: garbage }).run("x");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof ProviderError);
    assert.equal((result.error as ProviderError).kind, "bad_response");
    assert.match(result.error!.message, /junk.*content is not an array/);
  });

  test("a provider that hangs is cut by the request timeout and retried, then fails", async () => {
    let calls = 0;
    const hang: ModelProvider = {
      name: "hang",
      complete: () => {
        calls++;
        return new Promise<never>(() => {});
      },
    };
    const agent = new Agent({
      limits: { requestTimeoutMs: 30 },
      provider: hang,
      retry: { maxAttempts: 2, initialDelayMs: 1 },
    });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.equal((result.error as ProviderError).kind, "timeout");
    assert.equal(calls, 2);
    assert.equal(ofKind(seen, HookEvent.RETRY).length, 1);
    assert.equal(ofKind(seen, HookEvent.ERROR)[0]!.source, "provider");
  });

  test("a provider that throws a plain error", async () => {
    const broken: ModelProvider = {
      name: "broken",
      complete: async () => {
        throw new TypeError("cannot read x of undefined");
      },
    };
    const result = await new Agent({ provider: broken }).run("x");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof ProviderError);
  });

  test("running past the script's end names the step count", async () => {
    const result = await scriptedAgent([{ toolCalls: [{ name: "echo", input: { text: "a" } }] }], {
      tools: [echoTool],
    }).run("x");
    assert.equal(result.status, "failed");
    assert.match(result.error!.message, /has 1 steps; request 2 has none/);
  });
});
