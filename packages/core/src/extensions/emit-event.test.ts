// ctx.emitEvent: an extension reports its own work with the typed events meant for it, and
// cannot forge the engine's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import type { ExtensionContext } from "./context.js";
import { defineExtension } from "./extension.js";

function agentWithContext(): { agent: Agent; ctx: ExtensionContext } {
  let captured: ExtensionContext | undefined;
  const agent = new Agent({ provider: new ScriptedProvider([{ text: "ok" }]), extensions: [defineExtension("kb", (ctx) => void (captured = ctx))] });
  return { agent, ctx: captured! };
}

test("an extension emits KNOWLEDGE_ACCESSED with its typed payload to every observer", async () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  await ctx.emitEvent(HookEvent.KNOWLEDGE_ACCESSED, { tool: "search_knowledge", bundle: "runbooks", found: true, query: "restart", hits: 2 });
  assert.deepEqual(ofKind(seen, HookEvent.KNOWLEDGE_ACCESSED), [{ tool: "search_knowledge", bundle: "runbooks", found: true, query: "restart", hits: 2 }]);
});

test("the engine's own events cannot be emitted by an extension", () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  const forge = ctx.emitEvent as (event: string, data: unknown) => Promise<void>;
  assert.throws(() => forge(HookEvent.AGENT_END, { result: { status: "completed" } }), (e: unknown) => e instanceof ExtensionError && /cannot emit "agent_end"/.test(e.message));
  assert.equal(seen.length, 0);
});
