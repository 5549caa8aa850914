// What an extension registers and what the agent makes of it: registrations owned and removed
// exactly, prompt providers, custom events and shared state, and what AgentInfo tells of the
// extensions and their tools.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionError, ToolRegistrationError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { Extension, defineExtension } from "./extension.js";
import type { ExtensionContext } from "./extension-context.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";
import { okProvider } from "../test-support/ok-provider.js";

declare module "../hooks/custom-events.js" {
  interface CustomEvents {
    hello: { n: number };
  }
}

describe("ownership: registrations are tracked and removed exactly", () => {
  test("closing a registration removes exactly that one; agent close removes the rest", async () => {
    let regs: Record<string, { close(): void }> = {};
    const ext = defineExtension({
      name: "owner",
      install(ctx) {
        regs = {
          tool: ctx.registerTool(echoTool),
          other: ctx.registerTool(tool({ name: "other", description: "o", execute: () => "" })),
        };
      },
    });
    const agent = new Agent({ provider: okProvider(), extensions: [ext] });
    regs.tool.close();
    regs.tool.close();
    assert.deepEqual(agent.tools.names(), ["other"]);
    await agent.close();
    assert.deepEqual(agent.tools.names(), []);
  });

  test("a duplicate tool needs replace: true, only over the extension's own tool; closing the replacement restores it", () => {
    const mine = tool({ name: "echo", description: "mine", execute: () => "mine" });
    assert.throws(
      () =>
        new Agent({
          provider: okProvider(),
          tools: [echoTool],
          extensions: [defineExtension({ name: "x", install: (ctx) => void ctx.registerTool(mine) })],
        }),
      (e: unknown) => e instanceof ExtensionError && e.cause instanceof ToolRegistrationError,
    );
    let reg!: { close(): void };
    const agent = new Agent({
      provider: okProvider(),
      extensions: [
        defineExtension({
          name: "y",
          install: (ctx) => {
            ctx.registerTool(echoTool);
            reg = ctx.registerTool(mine, { replace: true });
          },
        }),
      ],
    });
    assert.equal(agent.tools.get("echo")!.description, "mine");
    reg.close();
    assert.equal(agent.tools.get("echo")!.description, "echo returns its text argument.");
  });

  test("a replacement closed after being replaced again does not clobber the newer binding", () => {
    const agent = new Agent({ provider: okProvider(), tools: [echoTool] });
    const v2 = agent.tools.register(tool({ name: "echo", description: "v2", execute: () => "" }), { replace: true });
    const v3 = agent.tools.register(tool({ name: "echo", description: "v3", execute: () => "" }), { replace: true });
    v2.close();
    assert.equal(agent.tools.get("echo")!.description, "v3");
    v3.close();
    assert.equal(agent.tools.get("echo")!.description, "echo returns its text argument.");
  });

  test("registerTool with a handler and options; its description enters the system prompt", async () => {
    const p = new ScriptedProvider([{ toolCalls: [{ name: "greet", input: { who: "ada" } }] }, { text: "ok" }], {
      recordRequests: true,
    });
    const ext = defineExtension({
      name: "greeter",
      install: (ctx) =>
        void ctx.registerTool((input) => `hello ${String(input.who)}`, {
          name: "greet",
          description: "greet says hello to someone.",
          inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
          replayPolicy: "safe",
        }),
    });
    const agent = new Agent({ provider: p, extensions: [ext] });
    await agent.run("x");
    assert.match(p.requests[0].system, /- greet: greet says hello to someone\./);
    assert.equal((p.requests[1].messages.at(-1)!.content[0] as { content: string }).content, "hello ada");
  });
});

describe("prompt providers, custom events and shared state", () => {
  test("prompt providers add context; a throwing one is left out and reported", async () => {
    const p = new ScriptedProvider([{ text: "ok" }], { recordRequests: true });
    const ext = defineExtension({
      name: "ctx",
      install(ctx) {
        ctx.registerPromptProvider(() => "Today is Tuesday.");
        ctx.registerPromptProvider(() => {
          throw new Error("no calendar");
        });
      },
    });
    const agent = new Agent({ provider: p, system: "base", extensions: [ext] });
    const seen = recordEvents(agent);
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    assert.match(p.requests[0].system, /base[\s\S]*Today is Tuesday\./);
    await new Promise((r) => setImmediate(r));
    const error = ofKind(seen, HookEvent.ERROR)[0];
    assert.equal(error.source, "prompt_provider");
    assert.equal(error.extension, "ctx");
  });

  test("ctx.emit reaches every observer as a CUSTOM event", async () => {
    class Emitter extends Extension {
      readonly name = "emitter";
      override install(ctx: ExtensionContext) {
        ctx.onHook(HookEvent.AGENT_START, () => ctx.emit("hello", { n: 1 }));
      }
    }
    const agent = new Agent({ provider: okProvider(), extensions: [new Emitter()] });
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.deepEqual(ofKind(seen, HookEvent.CUSTOM), [{ extension: "emitter", name: "hello", data: { n: 1 } }]);
  });

  test("getState/setState share metadata between extensions", () => {
    let read: unknown;
    const a = defineExtension({ name: "a", install: (ctx) => ctx.setState("a.key", 42) });
    const b = defineExtension({ name: "b", install: (ctx) => void (read = ctx.getState("a.key")) });
    new Agent({ provider: okProvider(), extensions: [a, b] });
    assert.equal(read, 42);
  });
});

describe("what the agent tells of its extensions and tools", () => {
  test("an extension's declared version and each tool's schema digest and settings are in AgentInfo; handlers are not", () => {
    const versioned = defineExtension({
      name: "billing",
      version: "2.3.1",
      install: (hx) => {
        hx.registerTool(
          tool({ name: "refund", description: "r", concurrent: true, replayPolicy: "never", execute: () => "ok" }),
        );
      },
    });
    const plain = defineExtension({ name: "plain", install: () => {} });
    const agent = new Agent({ provider: okProvider(), tools: [echoTool], extensions: [versioned, plain] });
    const byName = new Map(agent.info.extensions.map((e) => [e.name, e]));
    assert.equal(byName.get("billing")?.version, "2.3.1");
    assert.equal("version" in byName.get("plain")!, false, "no version is invented");
    const refund = agent.info.tools.find((t) => t.name === "refund")!;
    assert.deepEqual(
      { ...refund, schemaSha256: refund.schemaSha256.length },
      {
        name: "refund",
        description: "r",
        schemaSha256: 64,
        extension: "billing",
        concurrent: true,
        replayPolicy: "never",
        attempts: 1,
      },
    );
    const echo = agent.info.tools.find((t) => t.name === "echo")!;
    assert.notEqual(echo.schemaSha256, refund.schemaSha256, "different schemas, different digests");
    assert.ok(agent.info.tools.every((t) => !("execute" in t)));
  });
});
