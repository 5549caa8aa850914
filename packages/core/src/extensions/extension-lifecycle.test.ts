// How an agent installs, orders and closes its extensions: priority order and the hooks' order,
// names checked before any install, a failed install rolled back whole, and which lifecycle
// failures fail a turn and which are only reported.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionConflictError, ExtensionError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { MiddlewarePipeline } from "../middleware/pipeline.js";
import { type Extension, defineExtension } from "./extension.js";
import type { ExtensionContext } from "./extension-context.js";
import { echoTool, ofKind, recordEvents } from "../test-support/helpers.js";
import { okProvider } from "../test-support/ok-provider.js";

function logging(name: string, log: string[], priority?: number) {
  return defineExtension({
    name,
    priority,
    install: () => void log.push(`install ${name}`),
    onTurnStart: () => void log.push(`start ${name}`),
    onTurnSuccess: () => void log.push(`end ${name}`),
    onTurnEnd: () => void log.push(`complete ${name}`),
    onSaveSession: () => {
      log.push(`save ${name}`);
      return { n: 1 };
    },
    onLoadSession: () => void log.push(`load ${name}`),
    close: () => void log.push(`teardown ${name}`),
  });
}

describe("ordering", () => {
  test("lower priority installs first; ties keep input order; lifecycle follows the contract", async () => {
    const log: string[] = [];
    const agent = new Agent({
      provider: okProvider(),
      extensions: [logging("c", log, 200), logging("a", log), logging("b", log), logging("first", log, 1)],
    });
    assert.deepEqual(agent.extensionNames, ["first", "a", "b", "c"]);
    await agent.run("x");
    const state = agent.saveSession();
    await new Agent({ provider: okProvider(), extensions: [] }).loadSession(state);
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
    assert.deepEqual(
      log.filter((l) => /^(end|complete)/.test(l)),
      ["complete x"],
    );
  });
});

describe("name rules are checked before any install", () => {
  test("collisions and empty names are rejected and nothing was installed", () => {
    const log: string[] = [];
    assert.throws(
      () => new Agent({ provider: okProvider(), extensions: [logging("dup", log), logging("dup", log)] }),
      ExtensionConflictError,
    );
    assert.throws(
      () => new Agent({ provider: okProvider(), extensions: [logging("ok", log), logging(" ", log)] }),
      /empty name/,
    );
    assert.deepEqual(log, []);
  });

  test("one instance cannot be installed into two agents", async () => {
    const ext = logging("shared", []);
    const first = new Agent({ provider: okProvider(), extensions: [ext] });
    assert.throws(() => new Agent({ provider: okProvider(), extensions: [ext] }), /already installed in another agent/);
    await first.close();
    assert.doesNotThrow(
      () => new Agent({ provider: okProvider(), extensions: [ext] }),
      "after close the instance is free again",
    );
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
    const good = defineExtension({
      name: "good",
      priority: 1,
      install: (ctx) => void ctx.registerTool(tool({ name: "g", description: "g", execute: () => "" })),
    });
    assert.throws(
      () => new Agent({ provider: okProvider(), middleware: pipeline, extensions: [good, bad] }),
      (err: unknown) => {
        assert.ok(err instanceof ExtensionError);
        assert.equal(err.extension, "half_done");
        assert.match(err.message, /config missing/);
        return true;
      },
    );
    assert.deepEqual(seen!.info.toolNames, [], "both extensions' tools are gone");
    assert.equal(pipeline.size, 0);
    assert.throws(() => seen!.registerTool(echoTool), /context is closed/, "a late registration cannot sneak in");
    assert.doesNotThrow(
      () => new Agent({ provider: okProvider(), extensions: [good] }),
      "the good extension was released too",
    );
  });

  test("an async install is refused", () => {
    const ext = { name: "async_install", install: async (_ctx: ExtensionContext) => {} } as unknown as Extension;
    assert.throws(() => new Agent({ provider: okProvider(), extensions: [ext] }), /must be synchronous/);
  });
});

describe("failure isolation in the lifecycle", () => {
  test("onTurnStart failure fails the turn; onTurnEnd failure is reported and changes nothing", async () => {
    const starter = defineExtension({
      name: "starter",
      onTurnStart: () => {
        throw new Error("no db");
      },
      install: () => {},
    });
    const result = await new Agent({ provider: okProvider(), extensions: [starter] }).run("x");
    assert.equal(result.status, "failed");
    assert.match(result.error!.message, /starter.*no db/);

    const completer = defineExtension({
      name: "completer",
      onTurnEnd: () => {
        throw new Error("late");
      },
      install: () => {},
    });
    const agent = new Agent({ provider: okProvider(), extensions: [completer] });
    const seen = recordEvents(agent);
    assert.equal((await agent.run("x")).status, "completed");
    assert.deepEqual(
      ofKind(seen, HookEvent.ERROR).map((e) => [e.source, e.extension]),
      [["extension", "completer"]],
    );
  });

  test("close() tries every teardown and throws one AggregateError of the failures", async () => {
    const log: string[] = [];
    const mk = (name: string, fail: boolean) =>
      defineExtension({
        name,
        install: () => {},
        close: () => {
          log.push(name);
          if (fail) throw new Error(`${name} broke`);
        },
      });
    const agent = new Agent({ provider: okProvider(), extensions: [mk("a", true), mk("b", false), mk("c", true)] });
    await assert.rejects(agent.close(), (err: unknown) => {
      assert.ok(err instanceof AggregateError);
      assert.deepEqual(
        err.errors.map((e: Error) => (e as ExtensionError).extension),
        ["c", "a"],
      );
      return true;
    });
    assert.deepEqual(log, ["c", "b", "a"]);
  });
});
