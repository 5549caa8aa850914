// The forms an extension comes in (instance, definition, class, factory, discovered entry), how
// each is named, ordered, levelled and summarized, and what the host refuses before installing.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionConflictError, ExtensionContractError, ExtensionError, PrivilegeWideningError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { PermissionManager } from "../permissions/permission-manager.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { Registry } from "../util/registry.js";
import { echoTool } from "../test-support/helpers.js";
import { contribution, summarize } from "./contribution.js";
import type { ExtensionContext } from "./extension-context.js";
import { defineExtension, type ExtensionEntry } from "./extension.js";
import { statusLines } from "./status-lines.js";

const agentOf = (...extensions: ExtensionEntry[]) =>
  new Agent({ provider: new ScriptedProvider([{ text: "ok" }]), extensions });
const conflict = (extensions: unknown[], message: string) =>
  assert.throws(
    () => agentOf(...(extensions as ExtensionEntry[])),
    (err: unknown) => err instanceof ExtensionConflictError && err.message === message,
  );

describe("forms", () => {
  test("a class is instantiated whether or not it extends Extension; a factory mentioning classes is still a factory", () => {
    class Plain {
      readonly name = "plain";
      install(ctx: ExtensionContext) {
        ctx.registerTool(echoTool);
      }
    }
    const Anonymous = class {
      readonly name = "anonymous";
      install() {}
    };
    function mentions(ctx: ExtensionContext) {
      ctx.setState("note", "class {} and class X in a comment do not make this a class");
    }
    const agent = agentOf(Plain, Anonymous, mentions);
    assert.deepEqual(
      agent.info.extensions.map((e) => [e.name, e.level]),
      [
        ["plain", "builtin"],
        ["anonymous", "builtin"],
        ["mentions", "builtin"],
      ],
    );
  });

  test("a discovered entry keeps its level and source; an extension with such fields of its own is not one", () => {
    const found = defineExtension({ name: "found", install: () => {} });
    const odd = { name: "odd", level: "project", extension: "odd", install: () => {} };
    const agent = agentOf(
      { extension: found, level: "project", source: "/repo/.harnessx/extensions/found.ts" },
      { extension: defineExtension({ name: "sourceless", install: () => {} }), level: "user" },
      odd as never,
    );
    assert.deepEqual(
      agent.info.extensions.map((e) => [e.name, e.level, e.source]),
      [
        ["found", "project", "/repo/.harnessx/extensions/found.ts"],
        ["sourceless", "user", undefined],
        ["odd", "builtin", undefined],
      ],
    );
    assert.deepEqual(
      agent.contributions().map((c) => [c.level, "source" in c]),
      [
        ["project", true],
        ["user", false],
        ["builtin", false],
      ],
    );
  });

  test("defineExtension keeps the declared settings, binds only functions, and hides the hooks from enumeration", () => {
    const ext = defineExtension({
      name: "d",
      priority: 5,
      stateVersion: 2,
      version: "1.0.0",
      install: () => {},
      note: "not a hook",
    } as never);
    assert.deepEqual([ext.name, ext.priority, ext.stateVersion, ext.version], ["d", 5, 2, "1.0.0"]);
    assert.equal(typeof ext.install, "function");
    assert.deepEqual(Object.keys(ext).sort(), ["name", "priority", "stateVersion", "version"]);
  });

  test("a version that is not a string is not recorded", () => {
    const agent = agentOf({ name: "numbered", version: 3 as never, install: () => {} });
    assert.equal(agent.contributions()[0].version, undefined);
    assert.equal("version" in agent.info.extensions[0], false);
  });

  test("equal priorities keep the order given, however many there are", () => {
    const names = ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11", "e12"];
    const agent = agentOf(...names.map((name, i) => ({ name, priority: i === 6 ? 50 : 100, install: () => {} })));
    assert.deepEqual(agent.extensionNames, ["e7", ...names.filter((n) => n !== "e7")]);
  });
});

describe("summaries", () => {
  test("every kind an extension contributed is listed by name or id, in order", () => {
    const full = defineExtension({
      name: "full",
      contribute: () =>
        contribution("full", {
          prompts: [{ id: "guide", text: "g" }],
          lifecycle: [{ id: "warm", phase: "install", run: () => {} }],
        }),
      install(ctx) {
        ctx.onHook(HookEvent.TOOL_CALL_END, () => {});
        ctx.onAnyHook(() => {});
        ctx.registerCommand("go", { description: "", handler: () => undefined });
        ctx.registerTemplate({ name: "t", body: "{{x}}" });
        ctx.registerMessageType("m.t" as never, {});
      },
    });
    const [summary] = agentOf(full).info.extensions;
    assert.deepEqual(summary, {
      name: "full",
      level: "builtin",
      tools: [],
      prompts: ["guide"],
      policies: [],
      lifecycle: ["warm@install"],
      middleware: [],
      observers: ["tool_call_end", "*"],
      commands: ["go"],
      templates: ["t"],
      messageTypes: ["m.t"],
    });
  });

  test("an extension that contributed nothing has empty lists; a value without a level is builtin", () => {
    const [value] = agentOf({ name: "idle", onSessionStart: () => {} }).contributions();
    assert.deepEqual(
      { ...value },
      {
        extension: "idle",
        level: "builtin",
        tools: [],
        prompts: [],
        policies: [],
        lifecycle: [],
        middleware: [],
        observers: [],
        commands: [],
        templates: [],
        messageTypes: [],
      },
    );
    assert.equal(summarize(contribution("bare")).level, "builtin");
    assert.equal(
      summarize({ ...contribution("found"), level: "user", source: "/home/u/.harnessx/extensions/found.ts" }).source,
      "/home/u/.harnessx/extensions/found.ts",
    );
  });
});

describe("the ledger follows registrations", () => {
  test("closing a registration removes exactly its member, however often it is closed", () => {
    let regs: { close(): void }[] = [];
    const agent = agentOf({
      name: "p",
      install: (ctx: ExtensionContext) =>
        void (regs = ["a", "b", "c"].map((id) => ctx.addPolicy({ id, decide: () => "allow" }))),
    });
    regs[0].close();
    regs[0].close();
    assert.deepEqual(
      agent.contributions()[0].policies.map((p) => p.id),
      ["b", "c"],
    );
    regs[2].close();
    assert.deepEqual(
      agent.contributions()[0].policies.map((p) => p.id),
      ["b"],
    );
  });
});

describe("what the host refuses before installing", () => {
  test("entries that are not extensions, names that are not names, and duplicates, by position", () => {
    const ok = { name: "ok", install: () => {} };
    conflict([null], "extension #1 is not an extension (got null)");
    conflict([ok, 5], "extension #2 is not an extension (got number)");
    conflict(
      [ok, { name: 42, install: () => {} }],
      "extension #2 has an empty name; every extension needs a unique, non-empty name (a factory is named by defineExtension(name, fn))",
    );
    conflict([ok, { ...ok }], 'two extensions are named "ok"; names must be unique');
  });

  test("an extension with no hook names what it may implement", () => {
    assert.throws(
      () => agentOf({ name: "empty" } as never),
      (err: unknown) =>
        err instanceof ExtensionContractError &&
        err.member === "contribution" &&
        err.message ===
          'extension "empty": contribution: an extension needs install(ctx), contribute() or a lifecycle hook (onSessionStart, beforeAgentStart, onTurnStart, onTurnSuccess, onTurnEnd, onSaveSession, onLoadSession, onSessionEnd, close)',
    );
  });

  test("an async install is a contract error on the contribution", () => {
    assert.throws(
      () => agentOf({ name: "later", install: (async () => {}) as never }),
      (err: unknown) => err instanceof ExtensionContractError && err.member === "contribution",
    );
  });

  test("an error another extension's name is on is wrapped under the installing extension", () => {
    const foreign = new ExtensionError("someone-else", "borrowed failure");
    assert.throws(
      () =>
        agentOf({
          name: "installer",
          install: () => {
            throw foreign;
          },
        }),
      (err: unknown) => {
        assert.ok(err instanceof ExtensionError && !(err instanceof PrivilegeWideningError));
        assert.equal(err.extension, "installer");
        assert.equal(err.message, 'extension "installer": install failed: extension "someone-else": borrowed failure');
        assert.equal(err.cause, foreign);
        return true;
      },
    );
  });

  test("contribution() of no extension, or with members that are not objects, is refused whole", () => {
    assert.throws(
      () => agentOf(defineExtension({ name: "anon", contribute: () => contribution(undefined as never) })),
      PrivilegeWideningError,
    );
    for (const [member, got] of [
      [null, "null"],
      [5, "number"],
    ] as const) {
      const ext = defineExtension({
        name: "junk",
        contribute: () => contribution("junk", { tools: [member as never] }),
      });
      assert.throws(() => agentOf(ext), {
        message: `extension "junk": contribution: every member of tools must be an object, got ${got}`,
      });
    }
  });

  test("a member made from a class keeps its methods bound to the instance", async () => {
    class Confirm {
      readonly id = "confirm";
      private readonly reason = "confirm each echo";
      decide() {
        return { decision: "ask" as const, reason: this.reason };
      }
    }
    class Guide {
      readonly id = "guide";
      private readonly words = "Answer in French.";
      text() {
        return this.words;
      }
    }
    const provider = new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "hi" } }] }, { text: "ok" }], {
      recordRequests: true,
    });
    const agent = new Agent({
      provider,
      tools: [echoTool],
      permissions: new PermissionManager({ default: "allow" }),
      extensions: [
        defineExtension({
          name: "cls",
          contribute: () => contribution("cls", { policies: [new Confirm()], prompts: [new Guide()] }),
        }),
      ],
    });
    const result = await agent.run("x");
    assert.match(provider.requests[0].system, /Answer in French\./);
    assert.equal(result.status, "awaiting_approval", "an unbound decide() would throw, and a throwing policy denies");
    assert.equal(result.pending[0].reason, "confirm each echo");
  });
});

test("status lines leave out an empty line and name no extension for an owner-less provider", () => {
  const providers = new Registry<() => string | undefined>();
  providers.add(() => "", "quiet");
  providers.add(() => "up");
  assert.deepEqual(statusLines(providers), [{ extension: "", text: "up" }]);
});
