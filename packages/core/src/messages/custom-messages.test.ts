// Custom message types: entries live in the conversation and its saved sessions, are reported
// with their rendered text, and reach the model only as their type's toModel projects them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionError } from "../errors.js";
import type { ExtensionContext } from "../extensions/extension-context.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { ConversationMemory } from "../memory/conversation.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import type { Message } from "../types/content.js";

/** An extension with two types: `deploy.status` reaches the model as a user note, `ui.toast` never does. */
function statusExtension(onTurn?: (ctx: ExtensionContext) => Promise<void>) {
  return defineExtension({
    name: "deploys",
    install(ctx) {
      ctx.registerMessageType("deploy.status", {
        toModel: ({ data }) => {
          const d = data as { service: string; healthy: boolean };
          return d.healthy
            ? null
            : { role: "user", content: [{ type: "text", text: `[deploy] ${d.service} is unhealthy` }] };
        },
        render: ({ data }) =>
          `${(data as { service: string }).service}: ${(data as { healthy: boolean }).healthy ? "healthy" : "UNHEALTHY"}`,
      });
      ctx.registerMessageType("ui.toast", { render: ({ data }) => String((data as { text: string }).text) });
    },
    async onTurnStart(ctx) {
      await onTurn?.(ctx);
    },
  });
}

function agentWith(steps: ScriptStep[], onTurn?: (ctx: ExtensionContext) => Promise<void>) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({ provider, extensions: [statusExtension(onTurn)] });
  return { agent, provider, seen: recordEvents(agent) };
}

const texts = (messages: readonly Message[]) =>
  messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));

describe("projection at request time", () => {
  test("a type without toModel is dropped; toModel rewrites or drops (null) the others", async () => {
    const { agent, provider } = agentWith([{ text: "noted" }], async (ctx) => {
      await ctx.appendMessage("ui.toast", { text: "saved" });
      await ctx.appendMessage("deploy.status", { service: "billing", healthy: false });
      await ctx.appendMessage("deploy.status", { service: "search", healthy: true });
    });
    await agent.run("how are the deploys?");
    assert.deepEqual(texts(provider.requests[0]!.messages), ["[deploy] billing is unhealthy", "how are the deploys?"]);
    assert.equal(
      provider.requests[0]!.messages.length,
      1,
      "the projected note and the user's message are one user message",
    );
    assert.equal(
      agent.memory.entries.filter((e) => e.role === "custom").length,
      3,
      "every entry stays in the conversation",
    );
    assert.equal(agent.memory.messages.length, 2, "messages are the model's own");
  });

  test("each entry is reported with its rendered text and whether it can reach the model", async () => {
    const { agent, seen } = agentWith([{ text: "ok" }], async (ctx) => {
      await ctx.appendMessage("ui.toast", { text: "saved" });
      await ctx.appendMessage("deploy.status", { service: "billing", healthy: false });
    });
    await agent.run("x");
    assert.deepEqual(ofKind(seen, HookEvent.MESSAGE_APPENDED), [
      { type: "ui.toast", extension: "deploys", data: { text: "saved" }, text: "saved", toModel: false },
      {
        type: "deploy.status",
        extension: "deploys",
        data: { service: "billing", healthy: false },
        text: "billing: UNHEALTHY",
        toModel: true,
      },
    ]);
  });

  test("a toModel that throws fails the run closed, attributed to its extension", async () => {
    const broken = defineExtension({
      name: "broken",
      install(ctx) {
        ctx.registerMessageType("bad", {
          toModel: () => {
            throw new Error("no view");
          },
        });
      },
      async onTurnStart(ctx) {
        await ctx.appendMessage("bad", {});
      },
    });
    const provider = new ScriptedProvider([{ text: "never" }], { recordRequests: true });
    const result = await new Agent({ provider, extensions: [broken] }).run("x");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof ExtensionError && result.error.extension === "broken");
    assert.match(result.error.message, /toModel of message type "bad" failed: no view/);
    assert.equal(provider.requests.length, 0);
  });
});

describe("the boundaries of appending", () => {
  test("an extension appends only types it registered, with JSON data", async () => {
    let captured: ExtensionContext | undefined;
    const other = defineExtension("other", (ctx) => void (captured = ctx));
    const agent = new Agent({ provider: new ScriptedProvider([]), extensions: [statusExtension(), other] });
    await assert.rejects(
      captured!.appendMessage("deploy.status", { service: "x", healthy: false }),
      /cannot append a "deploy.status" entry: an extension appends only message types it registered/,
    );
    assert.equal(agent.memory.length, 0);
    const own = new Agent({
      provider: new ScriptedProvider([]),
      extensions: [
        defineExtension("own", (ctx) => {
          ctx.registerMessageType("t", {});
          captured = ctx;
        }),
      ],
    });
    await assert.rejects(captured!.appendMessage("t", { when: new Date(0) }), /the data of a "t" entry must be JSON/);
    assert.equal(own.memory.length, 0);
  });
});

describe("custom entries persist", () => {
  test("through saveSession and loadSession, and are projected again after loading", async () => {
    const first = agentWith([{ text: "ok" }], (ctx) =>
      ctx.appendMessage("deploy.status", { service: "billing", healthy: false }),
    );
    await first.agent.run("status?");
    const saved = JSON.parse(JSON.stringify(first.agent.saveSession()));
    assert.deepEqual(saved.messages[0], {
      role: "custom",
      type: "deploy.status",
      data: { service: "billing", healthy: false },
      extension: "deploys",
    });

    const second = agentWith([{ text: "still" }]);
    await second.agent.loadSession(saved);
    await second.agent.run("and now?");
    assert.deepEqual(texts(second.provider.requests[0]!.messages), [
      "[deploy] billing is unhealthy",
      "status?",
      "ok",
      "and now?",
    ]);
  });

  test("condensing keeps custom entries: after the message they followed, or after the first message when it was dropped", () => {
    const memory = new ConversationMemory();
    const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
    const assistant = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });
    const [u1, a1, u2, a2] = [user("u1"), assistant("a1"), user("u2"), assistant("a2")];
    memory.push(u1);
    memory.push(a1);
    memory.push({ role: "custom", type: "note", data: "after a1", extension: "e" });
    memory.push(u2);
    memory.push(a2);
    memory.push({ role: "custom", type: "note", data: "after a2", extension: "e" });
    memory.replaceMessages([u1, a2]);
    assert.deepEqual(
      memory.entries.map((e) => (e.role === "custom" ? `custom:${String(e.data)}` : texts([e])[0])),
      ["u1", "custom:after a1", "a2", "custom:after a2"],
    );
    assert.equal(memory.customCount, 2);
  });
});
