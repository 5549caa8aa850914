import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension, type Extension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { PermissionManager } from "../permissions/permission-manager.js";
import { ScriptedProvider, type ScriptStep } from "../providers/scripted.js";
import { tool } from "../tools/tool.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { SubagentError } from "./subagent-tool.js";

const wire = tool({ name: "wire", description: "wires money.", execute: () => "sent" });
const delegate = (name: string, input = "do it") => ({ toolCalls: [{ name, input: { input } }] });

/** A parent whose model calls `tool` once (input "do it") and then answers "done". */
/** A run limit of `max` model calls (what a budget extension adds through the public API). */
function callLimit(max: number): Extension {
  return defineExtension("call-limit", (hx) => {
    hx.addRunLimit({
      check: (p) =>
        p.modelCalls >= max
          ? { action: "answer", reason: `it made ${p.modelCalls} of its ${max} model calls` }
          : undefined,
    });
  });
}

function parentOf(child: Agent, options: { permissions?: PermissionManager; maxModelCalls?: number } = {}) {
  const helper = child.asTool({ name: "helper", description: "does the work." });
  const extensions = options.maxModelCalls ? [callLimit(options.maxModelCalls)] : [];
  const parent = new Agent({
    name: "boss",
    provider: new ScriptedProvider([delegate("helper"), { text: "done" }]),
    tools: [helper],
    permissions: options.permissions,
    extensions,
  });
  return { parent, seen: recordEvents(parent) };
}

function childWith(
  steps: ScriptStep[],
  options: { tools?: ReturnType<typeof tool>[]; permissions?: PermissionManager } = {},
) {
  const child = new Agent({
    name: "helper",
    provider: new ScriptedProvider(steps),
    retry: { maxAttempts: 1 },
    ...options,
  });
  return { child, seen: recordEvents(child) };
}

describe("a subagent's answer is its parent's tool result", () => {
  test("the child runs the call's input and its final text comes back", async () => {
    const { child, seen: childSeen } = childWith([{ text: "the answer is 42" }]);
    const { parent, seen } = parentOf(child);
    assert.equal((await parent.run("go")).status, "completed");
    assert.equal(ofKind(childSeen, HookEvent.AGENT_START)[0].input, "do it");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.deepEqual([end.outcome, end.result.content, end.result.isError], ["executed", "the answer is 42", false]);
  });

  test("a failing child is an error result naming why, and the parent goes on", async () => {
    const { child } = childWith([{ error: { status: 400, message: "model rejected the request" } }]);
    const { parent, seen } = parentOf(child);
    const result = await parent.run("go");
    assert.equal(result.status, "completed");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.equal(end.outcome, "failed");
    assert.equal(end.result.isError, true);
    assert.match(end.result.content, /subagent "helper" failed \(run run_[^)]+\): .*model rejected the request/);
    assert.ok(end.rawResult instanceof SubagentError && end.rawResult.status === "failed");
  });
});

describe("a subagent's run is linked to its parent's", () => {
  test("its run span hangs under the parent's execute_tool span, in the parent's trace, and names the parent run", async () => {
    const { child } = childWith([{ text: "ok" }]);
    const { parent } = parentOf(child);
    const spans: Record<string, { traceId: string; spanId: string; parentSpanId?: string; runId?: string }> = {};
    parent.hooks.on(HookEvent.AGENT_START, (ctx) => void (spans.parentRun = { ...ctx.span!, runId: ctx.data.runId }));
    parent.hooks.on(HookEvent.TOOL_CALL_START, (ctx) => void (spans.tool = { ...ctx.span! }));
    child.hooks.on(
      HookEvent.AGENT_START,
      (ctx) => void (spans.childRun = { ...ctx.span!, runId: ctx.data.parentRunId }),
    );
    await parent.run("go");
    assert.equal(spans.childRun.traceId, spans.parentRun.traceId);
    assert.equal(spans.childRun.parentSpanId, spans.tool.spanId);
    assert.equal(spans.childRun.runId, spans.parentRun.runId, "AGENT_START.parentRunId names the parent run");
  });
});

describe("a subagent only narrows its parent's permissions", () => {
  test("a call the parent's manager denies is denied in the child, whose own manager allows it", async () => {
    const { child, seen } = childWith([{ toolCalls: [{ name: "wire", input: {} }] }, { text: "could not" }], {
      tools: [wire],
    });
    const { parent } = parentOf(child, { permissions: new PermissionManager({ rules: { wire: "deny" } }) });
    await parent.run("go");
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.equal(end.outcome, "denied");
    assert.equal(end.permission?.source, "parent:manager");
  });

  test("the child's own stricter rule still applies", async () => {
    const { child, seen } = childWith([{ toolCalls: [{ name: "wire", input: {} }] }, { text: "could not" }], {
      tools: [wire],
      permissions: new PermissionManager({ rules: { wire: "deny" } }),
    });
    await parentOf(child).parent.run("go");
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].permission?.source, "manager");
  });

  test("a call that needs approval is refused in the child: nobody can approve inside a tool call", async () => {
    const { child, seen } = childWith([{ toolCalls: [{ name: "wire", input: {} }] }, { text: "could not" }], {
      tools: [wire],
      permissions: new PermissionManager({ rules: { wire: "ask" } }),
    });
    const { parent } = parentOf(child);
    assert.equal((await parent.run("go")).status, "completed");
    assert.match(
      ofKind(seen, HookEvent.TOOL_CALL_END)[0].result.content,
      /needs the user's approval .*which a subagent cannot wait for/,
    );
  });
});

describe("a subagent spends from its parent's budget", () => {
  const busy: ScriptStep[] = [delegate("wire"), delegate("wire"), delegate("wire"), { text: "child done" }];

  test("the parent's limit stops the child once the two together reach it, and the child's calls count for the parent", async () => {
    const { child, seen: childSeen } = childWith(busy, { tools: [wire] });
    const { parent, seen } = parentOf(child, { maxModelCalls: 3 });
    await parent.run("go");
    // Parent call 1, then child calls 1 and 2: before its third the two together made 3.
    const childStop = ofKind(childSeen, HookEvent.RECOVERY).find((r) => r.reason === "budget_exhausted");
    assert.match(childStop?.detail ?? "", /it made 3 of its 3 model calls/);
    const parentStop = ofKind(seen, HookEvent.RECOVERY).find((r) => r.reason === "budget_exhausted");
    assert.match(
      parentStop?.detail ?? "",
      /it made 4 of its 3 model calls/,
      "the child's 3 calls count against the parent",
    );
  });
});

describe("cancelling the parent cancels a running child", () => {
  test("the child's run ends cancelled, and so does the parent's", async () => {
    const controller = new AbortController();
    let childSignal: AbortSignal | undefined;
    const slow = tool({
      name: "slow",
      description: "waits until cancelled.",
      execute: (_input, ctx) =>
        new Promise((_, reject) => {
          childSignal = ctx.signal;
          controller.abort();
          ctx.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
        }),
    });
    const { child, seen: childSeen } = childWith([delegate("slow"), { text: "never" }], { tools: [slow] });
    const { parent } = parentOf(child);
    const result = await parent.run("go", { signal: controller.signal });
    assert.equal(result.status, "cancelled");
    assert.equal(childSignal?.aborted, true);
    await child.close();
    assert.equal(ofKind(childSeen, HookEvent.AGENT_END)[0]?.result.status, "cancelled");
  });
});

test("bad options are a clear typed error", () => {
  const { child } = childWith([]);
  assert.throws(() => child.asTool({ name: "bad name!", description: "x" }), { name: "ToolRegistrationError" });
  assert.throws(() => child.asTool(null as never), /asTool needs options/);
});
