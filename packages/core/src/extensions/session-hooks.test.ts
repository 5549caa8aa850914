// Session hooks: onSessionStart once per agent and onSessionEnd on close are observational
// (isolated); beforeAgentStart rewrites the first request's messages and fails closed.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import type { Message } from "../types/content.js";
import { defineExtension, type ExtensionDefinition } from "./extension.js";

function agentWith(steps: ScriptStep[], definitions: ExtensionDefinition[]) {
  const provider = new ScriptedProvider(steps, { recordRequests: true });
  const agent = new Agent({ provider, extensions: definitions.map((d) => defineExtension(d)) });
  return { agent, provider, seen: recordEvents(agent) };
}

const textOf = (m: Message) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");

describe("onSessionStart and onSessionEnd", () => {
  test("session start runs once per agent before its first turn; shutdown runs on close in reverse order, before teardown", async () => {
    const order: string[] = [];
    const tracked = (name: string): ExtensionDefinition => ({
      name,
      install: () => {},
      onSessionStart: () => void order.push(`${name}:start`),
      onTurnStart: () => void order.push(`${name}:turn`),
      onSessionEnd: () => void order.push(`${name}:shutdown`),
      close: () => void order.push(`${name}:teardown`),
    });
    const { agent } = agentWith([{ text: "one" }, { text: "two" }], [tracked("a"), tracked("b")]);
    await agent.run("first");
    await agent.run("second");
    await agent.close();
    assert.deepEqual(order, [
      "a:start",
      "b:start",
      "a:turn",
      "b:turn",
      "a:turn",
      "b:turn",
      "b:shutdown",
      "a:shutdown",
      "b:teardown",
      "a:teardown",
    ]);
  });

  test("their failures are reported as ERROR events attributed to the extension, and nothing else stops", async () => {
    const { agent, seen } = agentWith(
      [{ text: "fine" }],
      [
        {
          name: "noisy",
          install: () => {},
          onSessionStart: () => Promise.reject(new Error("no telemetry")),
          onSessionEnd: () => {
            throw new Error("disk full");
          },
        },
      ],
    );
    const result = await agent.run("x");
    assert.equal(result.status, "completed");
    await agent.close();
    const errors = ofKind(seen, HookEvent.ERROR).map((e) => [e.source, e.extension, e.error.message]);
    assert.deepEqual(errors, [
      ["extension", "noisy", 'extension "noisy": onSessionStart failed: no telemetry'],
      ["extension", "noisy", 'extension "noisy": onSessionEnd failed: disk full'],
    ]);
  });
});

describe("beforeAgentStart", () => {
  test("rewrites the messages of each run's first request, in install order, each seeing the previous result", async () => {
    const { agent, provider } = agentWith(
      [{ text: "ok" }],
      [
        {
          name: "context",
          beforeAgentStart: (_ctx, { messages }) => [
            { role: "user", content: [{ type: "text", text: "[context] on-call is Ana" }] },
            ...messages,
          ],
        },
        {
          name: "seen",
          beforeAgentStart: (_ctx, { input, messages }) =>
            messages.length === 2 && input === "who is on call?" ? undefined : [],
        },
      ],
    );
    await agent.run("who is on call?");
    assert.deepEqual(provider.requests[0]!.messages.map(textOf), ["[context] on-call is Ana", "who is on call?"]);
  });

  test("a failing rewrite fails the run closed before any model call", async () => {
    const { agent, provider } = agentWith(
      [{ text: "never" }],
      [
        {
          name: "guard",
          beforeAgentStart: () => {
            throw new Error("policy service down");
          },
        },
      ],
    );
    const result = await agent.run("x");
    assert.equal(result.status, "failed");
    assert.ok(result.error instanceof ExtensionError && result.error.extension === "guard");
    assert.match(result.error.message, /beforeAgentStart failed: policy service down/);
    assert.equal(provider.requests.length, 0);
  });

  test("a rewrite that alters provider-owned blocks (signed reasoning) is refused", async () => {
    const { agent, provider } = agentWith(
      [{ text: "first", reasoning: { text: "thinking", signature: "sig-1" } }, { text: "second" }],
      [
        {
          name: "stripper",
          install: () => {},
          beforeAgentStart: (_ctx, { messages }) =>
            messages.length > 1
              ? messages.map((m) =>
                  m.role === "assistant"
                    ? { ...m, content: m.content.map((b) => (b.type === "reasoning" ? { ...b, text: "edited" } : b)) }
                    : m,
                )
              : undefined,
        },
      ],
    );
    assert.equal((await agent.run("one")).status, "completed");
    const second = await agent.run("two");
    assert.equal(second.status, "failed");
    assert.match(second.error!.message, /stripper.*beforeAgentStart: .*provider-owned/);
    assert.equal(provider.requests.length, 1);
  });
});
