// ctx.registerStatus feeds agent.status(); ctx.sessionSnapshot() is a copy of the saved session.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ScriptedProvider } from "../providers/scripted.js";
import type { ExtensionContext } from "./extension-context.js";
import { defineExtension } from "./extension.js";

test("status lines come from every provider in install order; a failing or silent one is left out", () => {
  let calls = 0;
  const agent = new Agent({
    provider: new ScriptedProvider([]),
    extensions: [
      defineExtension("tokens", (ctx) => void ctx.registerStatus(() => `asked ${++calls} times`)),
      defineExtension(
        "broken",
        (ctx) =>
          void ctx.registerStatus(() => {
            throw new Error("no");
          }),
      ),
      defineExtension("quiet", (ctx) => void ctx.registerStatus(() => undefined)),
    ],
  });
  assert.deepEqual(agent.status(), [{ extension: "tokens", text: "asked 1 times" }]);
  assert.deepEqual(agent.status(), [{ extension: "tokens", text: "asked 2 times" }]);
});

test("a session snapshot is what saveSession gives, and changing it changes nothing in the agent", async () => {
  let ctx: ExtensionContext | undefined;
  const agent = new Agent({
    provider: new ScriptedProvider([{ text: "hi" }]),
    extensions: [defineExtension("cp", (c) => void (ctx = c))],
  });
  await agent.run("hello");
  const snapshot = ctx!.sessionSnapshot();
  assert.deepEqual(snapshot, agent.saveSession());
  snapshot.messages.length = 0;
  assert.equal(agent.saveSession().messages.length, 2);
});
