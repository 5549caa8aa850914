import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "./agent.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import type { ModelProvider, ModelRequest } from "../types/provider.js";
import { echoTool } from "../test-support/helpers.js";

const script = () =>
  new ScriptedProvider([
    { toolCalls: [{ name: "echo", input: { text: "a" } }] },
    { toolCalls: [{ name: "echo", input: { text: "b" } }] },
    { text: "done" },
  ]);

/** Message counts of the kept requests, read after the run: what each one carried when sent. */
const counts = (requests: readonly ModelRequest[]) => requests.map((r) => r.messages.length);

describe("a request's history stays as sent for whoever may keep it", () => {
  test("a provider that does not say it borrows requests gets its own copy per call", async () => {
    const inner = script();
    const kept: ModelRequest[] = [];
    const provider: ModelProvider = {
      name: "keeper",
      complete: (request) => {
        kept.push(request);
        return inner.complete(request);
      },
    };
    await new Agent({ provider, tools: [echoTool] }).run("go");
    assert.deepEqual(counts(kept), [1, 3, 5]);
  });

  test("an LLM_REQUEST observer gets a copy even when the provider only borrows", async () => {
    const provider = script();
    assert.equal(provider.borrowsRequests, true);
    const agent = new Agent({ provider, tools: [echoTool] });
    const seen: ModelRequest[] = [];
    agent.hooks.on(HookEvent.LLM_REQUEST, (ctx) => void seen.push(ctx.data.request));
    await agent.run("go");
    assert.deepEqual(counts(seen), [1, 3, 5]);
  });

  test("a recording ScriptedProvider keeps what each request carried", async () => {
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "a" } }] }, { text: "done" }], {
      recordRequests: true,
    });
    assert.equal(provider.borrowsRequests, false);
    await new Agent({ provider, tools: [echoTool] }).run("go");
    assert.deepEqual(counts(provider.requests), [1, 3]);
  });

  test("reading requests of a provider that does not record them is an error, not an empty list", () => {
    assert.throws(() => script().requests, /recordRequests: true/);
  });
});
