import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionConflictError, ExtensionContractError } from "../errors.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { echoTool } from "../test-support/helpers.js";
import { contribution } from "./contribution.js";
import type { ExtensionContext } from "./extension-context.js";
import { Extension, defineExtension } from "./extension.js";

const provider = () => new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "hi" } }] }, { text: "ok" }]);

describe("factory extensions: a plain function is an extension", () => {
  test("a named function is accepted as it is, named after the function", async () => {
    function echoing(hx: ExtensionContext): void {
      hx.registerTool(echoTool);
    }
    const agent = new Agent({ provider: provider(), extensions: [echoing] });
    assert.deepEqual(agent.extensionNames, ["echoing"]);
    assert.equal((await agent.run("x")).status, "completed");
    assert.deepEqual(
      agent.contributions()[0]!.tools.map((t) => [t.name, t.extension]),
      [["echo", "echoing"]],
    );
  });

  test("defineExtension(name, fn) names an anonymous factory; without a name it is refused", () => {
    const agent = new Agent({
      provider: provider(),
      extensions: [defineExtension("echo-tools", (hx) => void hx.registerTool(echoTool))],
    });
    assert.deepEqual(agent.extensionNames, ["echo-tools"]);
    assert.throws(
      () => new Agent({ provider: provider(), extensions: [(hx: ExtensionContext) => void hx.registerTool(echoTool)] }),
      ExtensionConflictError,
    );
  });

  test("a factory may return its contribution, which is validated like any other", () => {
    const declaring = defineExtension("declaring", () => contribution("declaring", { tools: [echoTool] }));
    assert.deepEqual(
      new Agent({ provider: provider(), extensions: [declaring] }).contributions()[0]!.tools.map((t) => t.name),
      ["echo"],
    );
    const lying = defineExtension("lying", () => contribution("someone-else", { tools: [echoTool] }));
    assert.throws(
      () => new Agent({ provider: provider(), extensions: [lying] }),
      (err: unknown) => err instanceof ExtensionContractError && err.extension === "lying",
    );
  });

  test("an async factory is refused", () => {
    const slow = defineExtension("slow", (async () => {}) as never);
    assert.throws(() => new Agent({ provider: provider(), extensions: [slow] }), /must be synchronous/);
  });

  test("an Extension class is accepted and instantiated", () => {
    class Echoing extends Extension {
      readonly name = "echo-class";
      override contribute() {
        return contribution(this, { tools: [echoTool] });
      }
    }
    const agent = new Agent({ provider: provider(), extensions: [Echoing] });
    assert.deepEqual(
      agent.info.extensions.map((e) => [e.name, e.tools]),
      [["echo-class", ["echo"]]],
    );
  });
});
