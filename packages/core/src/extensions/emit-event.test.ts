// What an extension emits: its own work with the typed events meant for it (never the engine's),
// custom events, its failures and custom conversation entries, each attributed to it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import type { ExtensionContext } from "./extension-context.js";
import { defineExtension } from "./extension.js";

function agentWithContext(): { agent: Agent; ctx: ExtensionContext } {
  let captured: ExtensionContext | undefined;
  const agent = new Agent({
    provider: new ScriptedProvider([{ text: "ok" }]),
    extensions: [defineExtension("kb", (ctx) => void (captured = ctx))],
  });
  return { agent, ctx: captured! };
}

test("an extension emits KNOWLEDGE_ACCESSED with its typed payload to every observer, naming the extension", async () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  await ctx.report(HookEvent.KNOWLEDGE_ACCESSED, {
    tool: "search_knowledge",
    bundle: "runbooks",
    found: true,
    query: "restart",
    hits: 2,
  });
  assert.deepEqual(ofKind(seen, HookEvent.KNOWLEDGE_ACCESSED), [
    { tool: "search_knowledge", bundle: "runbooks", found: true, query: "restart", hits: 2, extension: "kb" },
  ]);
});

test("every reported event names the extension that emitted it, whatever its data claimed", async () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  await ctx.report(HookEvent.SKILL_INVOKED, { skill: "approve-payments", found: true, bodyChars: 900 });
  await ctx.report(HookEvent.SANDBOX_EXEC, {
    engine: "duckdb",
    statementSha256: "0",
    tool: "read_result",
    rows: 1,
    durationMs: 1,
    refused: false,
    extension: "spill",
  });
  await ctx.report(HookEvent.CHECKPOINT, {
    sessionId: "s",
    runId: "r",
    status: "awaiting_approval",
    phase: "approval_wait",
    extension: undefined,
  });
  assert.deepEqual(
    seen.map((e) => [e.event, (e.data as { extension?: unknown }).extension]),
    [
      [HookEvent.SKILL_INVOKED, "kb"],
      [HookEvent.SANDBOX_EXEC, "kb"],
      [HookEvent.CHECKPOINT, "kb"],
    ],
  );
});

test("the engine's own events cannot be emitted by an extension", () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  const forge = ctx.report as (event: string, data: unknown) => Promise<void>;
  assert.throws(
    () => forge(HookEvent.AGENT_END, { result: { status: "completed" } }),
    (e: unknown) => e instanceof ExtensionError && /cannot emit "agent_end"/.test(e.message),
  );
  assert.throws(() => forge("tool_call_start", {}), {
    message:
      'extension "kb": cannot emit "tool_call_start": an extension emits only skill_invoked, knowledge_accessed, sandbox_exec, checkpoint (and custom events with emit())',
  });
  assert.equal(seen.length, 0);
});

test("every emit returns a promise that settles once the observers have, even with none", async () => {
  const { agent, ctx } = agentWithContext();
  assert.ok(ctx.emit("hello", { n: 1 }) instanceof Promise);
  assert.ok(ctx.report(HookEvent.CHECKPOINT, { label: "a" } as never) instanceof Promise);
  assert.ok(ctx.reportError(new Error("x")) instanceof Promise);
  const done: string[] = [];
  agent.hooks.onAny(async (c) => {
    await new Promise((r) => setImmediate(r));
    done.push(c.event);
  });
  await ctx.emit("hello", { n: 1 });
  await ctx.report(HookEvent.CHECKPOINT, { label: "a" } as never);
  await ctx.reportError(new Error("x"));
  assert.deepEqual(done, [HookEvent.CUSTOM, HookEvent.CHECKPOINT, HookEvent.ERROR]);
});

test("a custom event carries its artifacts only when there are some", async () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  const artifact = { sha256: "a".repeat(64), bytes: 3, mediaType: "text/plain" };
  await ctx.emit("hello", { n: 1 }, { artifacts: [artifact] });
  await ctx.emit("hello", { n: 2 }, { artifacts: [] });
  assert.deepEqual(ofKind(seen, HookEvent.CUSTOM), [
    { extension: "kb", name: "hello", data: { n: 1 }, artifacts: [artifact] },
    { extension: "kb", name: "hello", data: { n: 2 } },
  ]);
});

test("reportError names the extension; its source is one an extension may claim, else extension", async () => {
  const { agent, ctx } = agentWithContext();
  const seen = recordEvents(agent);
  const error = new Error("upload failed");
  await ctx.reportError(error);
  await ctx.reportError(error, { source: "exporter", dropped: 3 });
  await ctx.reportError(error, { source: "recorder" });
  await ctx.reportError(error, { source: "engine" as never, dropped: 0 });
  assert.deepEqual(
    ofKind(seen, HookEvent.ERROR).map((e) => ({ ...e, error: e.error.message })),
    [
      { source: "extension", error: "upload failed", extension: "kb" },
      { source: "exporter", error: "upload failed", extension: "kb", dropped: 3 },
      { source: "recorder", error: "upload failed", extension: "kb" },
      { source: "extension", error: "upload failed", extension: "kb", dropped: 0 },
    ],
  );
});

test("an appended entry is reported with its rendered text, when there is one, and whether the model sees it", async () => {
  let captured!: ExtensionContext;
  const agent = new Agent({
    provider: new ScriptedProvider([{ text: "ok" }]),
    extensions: [
      defineExtension("notes", (ctx) => {
        captured = ctx;
        ctx.registerMessageType("note.shown" as never, {
          render: ({ data }) => `note ${String((data as { n: number }).n)}`,
          toModel: () => null,
        });
        ctx.registerMessageType("note.silent" as never, {});
      }),
    ],
  });
  const seen = recordEvents(agent);
  await captured.appendMessage("note.shown" as never, { n: 1 } as never);
  await captured.appendMessage("note.silent" as never, { n: 2 } as never);
  assert.deepEqual(ofKind(seen, HookEvent.MESSAGE_APPENDED), [
    { type: "note.shown", extension: "notes", data: { n: 1 }, text: "note 1", toModel: true },
    { type: "note.silent", extension: "notes", data: { n: 2 }, toModel: false },
  ]);
  assert.equal(agent.memory.entries.length, 2);
});
