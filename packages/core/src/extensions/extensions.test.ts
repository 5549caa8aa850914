import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionConflictError, ExtensionError, ToolRegistrationError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { MiddlewarePipeline } from "../middleware/pipeline.js";
import { Extension, defineExtension } from "./extension.js";
import type { ExtensionContext } from "./extension-context.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";

declare module "../hooks/custom-events.js" {
  interface CustomEvents {
    hello: { n: number };
  }
}

const provider = (n = 1) => new ScriptedProvider(Array.from({ length: n }, () => ({ text: "ok" })));

function logging(name: string, log: string[], priority?: number) {
  return defineExtension({
    name,
    priority,
    install: () => void log.push(`install ${name}`),
    onTurnStart: () => void log.push(`start ${name}`),
    onTurnSuccess: () => void log.push(`end ${name}`),
    onTurnEnd: () => void log.push(`complete ${name}`),
    onSaveSession: () => { log.push(`save ${name}`); return { n: 1 }; },
    onLoadSession: () => void log.push(`load ${name}`),
    close: () => void log.push(`teardown ${name}`),
  });
}

describe("ordering", () => {
  test("lower priority installs first; ties keep input order; lifecycle follows the contract", async () => {
    const log: string[] = [];
    const agent = new Agent({ provider: provider(), extensions: [logging("c", log, 200), logging("a", log), logging("b", log), logging("first", log, 1)] });
    assert.deepEqual(agent.extensionNames, ["first", "a", "b", "c"]);
    await agent.run("x");
    const state = agent.saveSession();
    await new Agent({ provider: provider(), extensions: [] }).loadSession(state);
    await agent.loadSession(state);
    await agent.close();
    const of = (verb: string) => log.filter((l) => l.startsWith(verb)).map((l) => l.split(" ")[1]);
    assert.deepEqual(of("install"), ["first", "a", "b", "c"]);
    assert.deepEqual(of("start"), ["first", "a", "b", "c"]);
    assert.deepEqual(of("end"), ["first", "a", "b", "c"]);
    assert.deepEqual(of("save"), ["first", "a", "b", "c"]);
    assert.deepEqual(of("load"), ["first", "a", "b", "c"]);
    assert.deepEqual(of("complete"), ["c", "b", "a", "first"]);
    assert.deepEqual(of("teardown"), ["c", "b", "a", "first"]);
  });

  test("onTurnEnd runs on failure and cancellation but not on an approval wait; onTurnSuccess only on success", async () => {
    const log: string[] = [];
    const ask = tool({ name: "ask_me", description: "a", permission: "ask", execute: () => "" });
    const p = new ScriptedProvider([{ error: { status: 400 } }, { toolCalls: [{ name: "ask_me" }] }]);
    const agent = new Agent({ provider: p, tools: [ask], extensions: [logging("x", log)] });
    await agent.run("fails");
    await agent.run("waits");
    assert.deepEqual(log.filter((l) => /^(end|complete)/.test(l)), ["complete x"]);
  });
});

describe("name rules are checked before any install", () => {
  test("collisions and empty names are rejected and nothing was installed", () => {
    const log: string[] = [];
    assert.throws(() => new Agent({ provider: provider(), extensions: [logging("dup", log), logging("dup", log)] }), ExtensionConflictError);
    assert.throws(() => new Agent({ provider: provider(), extensions: [logging("ok", log), logging(" ", log)] }), /empty name/);
    assert.deepEqual(log, []);
  });

  test("one instance cannot be installed into two agents", async () => {
    const ext = logging("shared", []);
    const first = new Agent({ provider: provider(), extensions: [ext] });
    assert.throws(() => new Agent({ provider: provider(), extensions: [ext] }), /already installed in another agent/);
    await first.close();
    assert.doesNotThrow(() => new Agent({ provider: provider(), extensions: [ext] }), "after close the instance is free again");
  });
});

describe("rollback: a failed install undoes every registration it made", () => {
  test("tools, middleware, hooks, prompt providers and policies are removed and the constructor names the extension", () => {
    let seen: ExtensionContext | undefined;
    const pipeline = new MiddlewarePipeline();
    const bad = defineExtension({
      name: "half_done",
      install(ctx) {
        seen = ctx;
        ctx.registerTool(echoTool);
        ctx.addMiddleware({ name: "m" });
        ctx.onHook(HookEvent.AGENT_START, () => {});
        ctx.registerPromptProvider(() => "p");
        ctx.addPolicy({ id: "p", decide: () => "allow" });
        throw new Error("config missing");
      },
    });
    const good = defineExtension({ name: "good", priority: 1, install: (ctx) => void ctx.registerTool(tool({ name: "g", description: "g", execute: () => "" })) });
    assert.throws(() => new Agent({ provider: provider(), middleware: pipeline, extensions: [good, bad] }), (err: unknown) => {
      assert.ok(err instanceof ExtensionError);
      assert.equal(err.extension, "half_done");
      assert.match(err.message, /config missing/);
      return true;
    });
    assert.deepEqual(seen!.info.toolNames, [], "both extensions' tools are gone");
    assert.equal(pipeline.size, 0);
    assert.throws(() => seen!.registerTool(echoTool), /context is closed/, "a late registration cannot sneak in");
    assert.doesNotThrow(() => new Agent({ provider: provider(), extensions: [good] }), "the good extension was released too");
  });

  test("an async install is refused", () => {
    const ext = { name: "async_install", install: async (_ctx: ExtensionContext) => {} } as unknown as Extension;
    assert.throws(() => new Agent({ provider: provider(), extensions: [ext] }), /must be synchronous/);
  });
});

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
    const agent = new Agent({ provider: provider(), extensions: [ext] });
    regs.tool.close();
    regs.tool.close();
    assert.deepEqual(agent.tools.names(), ["other"]);
    await agent.close();
    assert.deepEqual(agent.tools.names(), []);
  });

  test("a duplicate tool needs replace: true, only over the extension's own tool; closing the replacement restores it", () => {
    const mine = tool({ name: "echo", description: "mine", execute: () => "mine" });
    assert.throws(() => new Agent({ provider: provider(), tools: [echoTool], extensions: [defineExtension({ name: "x", install: (ctx) => void ctx.registerTool(mine) })] }), (e: unknown) => e instanceof ExtensionError && e.cause instanceof ToolRegistrationError);
    let reg!: { close(): void };
    const agent = new Agent({
      provider: provider(),
      extensions: [defineExtension({ name: "y", install: (ctx) => { ctx.registerTool(echoTool); reg = ctx.registerTool(mine, { replace: true }); } })],
    });
    assert.equal(agent.tools.get("echo")!.description, "mine");
    reg.close();
    assert.equal(agent.tools.get("echo")!.description, "echo returns its text argument.");
  });

  test("a replacement closed after being replaced again does not clobber the newer binding", () => {
    const agent = new Agent({ provider: provider(), tools: [echoTool] });
    const v2 = agent.tools.register(tool({ name: "echo", description: "v2", execute: () => "" }), { replace: true });
    const v3 = agent.tools.register(tool({ name: "echo", description: "v3", execute: () => "" }), { replace: true });
    v2.close();
    assert.equal(agent.tools.get("echo")!.description, "v3");
    v3.close();
    assert.equal(agent.tools.get("echo")!.description, "echo returns its text argument.");
  });

  test("registerTool with a handler and options; its description enters the system prompt", async () => {
    const p = new ScriptedProvider([{ toolCalls: [{ name: "greet", input: { who: "ada" } }] }, { text: "ok" }], { recordRequests: true });
    const ext = defineExtension({
      name: "greeter",
      install: (ctx) =>
        void ctx.registerTool((input) => `hello ${String(input.who)}`, { name: "greet", description: "greet says hello to someone.", inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] }, replayPolicy: "safe" }),
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
        ctx.registerPromptProvider(() => { throw new Error("no calendar"); });
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
    const agent = new Agent({ provider: provider(), extensions: [new Emitter()] });
    const seen = recordEvents(agent);
    await agent.run("x");
    assert.deepEqual(ofKind(seen, HookEvent.CUSTOM), [{ extension: "emitter", name: "hello", data: { n: 1 } }]);
  });

  test("getState/setState share metadata between extensions", () => {
    let read: unknown;
    const a = defineExtension({ name: "a", install: (ctx) => ctx.setState("a.key", 42) });
    const b = defineExtension({ name: "b", install: (ctx) => void (read = ctx.getState("a.key")) });
    new Agent({ provider: provider(), extensions: [a, b] });
    assert.equal(read, 42);
  });
});

describe("failure isolation in the lifecycle", () => {
  test("onTurnStart failure fails the turn; onTurnEnd failure is reported and changes nothing", async () => {
    const starter = defineExtension({ name: "starter", onTurnStart: () => { throw new Error("no db"); }, install: () => {} });
    const result = await new Agent({ provider: provider(), extensions: [starter] }).run("x");
    assert.equal(result.status, "failed");
    assert.match(result.error!.message, /starter.*no db/);

    const completer = defineExtension({ name: "completer", onTurnEnd: () => { throw new Error("late"); }, install: () => {} });
    const agent = new Agent({ provider: provider(), extensions: [completer] });
    const seen = recordEvents(agent);
    assert.equal((await agent.run("x")).status, "completed");
    assert.deepEqual(ofKind(seen, HookEvent.ERROR).map((e) => [e.source, e.extension]), [["extension", "completer"]]);
  });

  test("close() tries every teardown and throws one AggregateError of the failures", async () => {
    const log: string[] = [];
    const mk = (name: string, fail: boolean) => defineExtension({ name, install: () => {}, close: () => { log.push(name); if (fail) throw new Error(`${name} broke`); } });
    const agent = new Agent({ provider: provider(), extensions: [mk("a", true), mk("b", false), mk("c", true)] });
    await assert.rejects(agent.close(), (err: unknown) => {
      assert.ok(err instanceof AggregateError);
      assert.deepEqual(err.errors.map((e: Error) => (e as ExtensionError).extension), ["c", "a"]);
      return true;
    });
    assert.deepEqual(log, ["c", "b", "a"]);
  });
});

describe("what the agent tells of its extensions and tools", () => {
  test("an extension's declared version and each tool's schema digest and settings are in AgentInfo; handlers are not", () => {
    const versioned = defineExtension({ name: "billing", version: "2.3.1", install: (hx) => {
        hx.registerTool(tool({ name: "refund", description: "r", concurrent: true, replayPolicy: "never", execute: () => "ok" }));
      },
    });
    const plain = defineExtension({ name: "plain", install: () => {} });
    const agent = new Agent({ provider: provider(), tools: [echoTool], extensions: [versioned, plain] });
    const byName = new Map(agent.info.extensions.map((e) => [e.name, e]));
    assert.equal(byName.get("billing")?.version, "2.3.1");
    assert.equal("version" in byName.get("plain")!, false, "no version is invented");
    const refund = agent.info.tools.find((t) => t.name === "refund")!;
    assert.deepEqual({ ...refund, schemaSha256: refund.schemaSha256.length }, { name: "refund", description: "r", schemaSha256: 64, extension: "billing", concurrent: true, replayPolicy: "never", attempts: 1 });
    const echo = agent.info.tools.find((t) => t.name === "echo")!;
    assert.notEqual(echo.schemaSha256, refund.schemaSha256, "different schemas, different digests");
    assert.ok(agent.info.tools.every((t) => !("execute" in t)));
  });
});
