import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Agent, ScriptedProvider, tool } from "@harnessx/core";
import { mapSpans } from "@harnessx/core/tracing";
import { FlightRecorderExtension } from "../recording/flight-recorder.js";
import { readRun } from "../store/read-run.js";
import { readRunManifest } from "../store/run-manifest.js";
import { runDirOf } from "./layout.js";
import { echoTool } from "../test-support/agents.js";
import { tempDir } from "../../../test/support/system.js";
import { decodeAttributes, encodeAttributes, spanRoleOf } from "./event-codec.js";
import { traceEventsOf } from "./trace-events.js";

const failing = tool({
  name: "flaky",
  description: "always fails",
  execute: () => {
    throw new Error("disk full");
  },
});

/** A run touching every declared kind's facts: tool calls that work, fail and do not exist, cache tokens, a failed end. */
async function recordedRun(dir: string) {
  const recorder = new FlightRecorderExtension({ dir });
  const agent = new Agent({
    name: "codec-agent",
    provider: new ScriptedProvider([
      {
        toolCalls: [
          { id: "c1", name: "echo", input: { text: "hi" } },
          { id: "c2", name: "flaky", input: {} },
          { id: "c3", name: "missing", input: {} },
        ],
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 64, cacheWriteTokens: 8 },
      },
      { text: "done", usage: { inputTokens: 130, outputTokens: 5 } },
    ]),
    tools: [echoTool, failing],
    extensions: [recorder],
  });
  const result = await agent.run("go");
  await recorder.close();
  const runDir = runDirOf(dir, result.runId);
  return { manifest: await readRunManifest(runDir), events: (await readRun(runDir)).events };
}

describe("the attribute codec", () => {
  test("spans mapped from attributes alone equal spans mapped from the payloads", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { manifest, events } = await recordedRun(dir);
      const options = { traceId: manifest.traceId };
      const agent = { agent: { name: manifest.agent, sessionId: manifest.sessionId }, keepDetail: false };
      // A span's detail is the content it was mapped from, and a failed tool call's message is its
      // result's text: content, which attributes leave out by design. Everything else must match.
      const spans = (attrsOnly: boolean) =>
        mapSpans(traceEventsOf(events, { ...options, attrsOnly }).events, agent).map(({ detail: _, ...span }) =>
          span.role === "tool" && span.error ? { ...span, error: { ...span.error, message: "(content)" } } : span,
        );
      const full = spans(false);
      const attrsOnly = spans(true);
      assert.equal(full.length, 6);
      assert.deepEqual(attrsOnly, full);
    } finally {
      cleanup();
    }
  });

  test("every declared attribute is read back at each place it came from", () => {
    const data = {
      result: { toolCallId: "c9", name: "grep", content: "x", isError: true, artifacts: [{ sha256: "a", bytes: 1 }] },
      toolCall: { id: "c9", name: "grep", input: { q: 1 } },
      outcome: "failed",
      durationMs: 12,
      permission: { decision: "allow", source: "policy" },
      rewrittenBy: "guard",
    };
    const attrs = encodeAttributes("tool_call_end", data);
    assert.deepEqual(attrs, {
      toolName: "grep",
      toolCallId: "c9",
      outcome: "failed",
      isError: true,
      durationMs: 12,
      permission: "allow",
      permissionSource: "policy",
      artifacts: [{ sha256: "a", bytes: 1 }],
      rewrittenBy: "guard",
    });
    // Written from the first place a field names (the call asked for), read back to every place.
    const renamed = encodeAttributes("tool_call_end", { toolCall: { name: "asked" }, result: { name: "other" } });
    assert.equal(renamed.toolName, "asked");
    assert.deepEqual(decodeAttributes("tool_call_end", "run_1", attrs), {
      toolCall: { id: "c9", name: "grep", input: {} },
      result: { toolCallId: "c9", name: "grep", content: "", isError: true, artifacts: [{ sha256: "a", bytes: 1 }] },
      outcome: "failed",
      durationMs: 12,
      permission: { decision: "allow", source: "policy" },
      rewrittenBy: "guard",
    });
  });

  test("a value its field refuses is neither written nor read; an error's message falls back only inside an error", () => {
    assert.deepEqual(encodeAttributes("llm_response", { usage: { inputTokens: 1, cacheReadTokens: Number.NaN } }), {
      inputTokens: 1,
    });
    assert.deepEqual(decodeAttributes("agent_start", "run_1", { spanAttributes: "not a record", resumed: "yes" }), {
      runId: "run_1",
      input: "",
      resumed: false,
    });
    const ended = decodeAttributes("agent_end", "run_1", { status: "completed" }) as { result: object };
    assert.equal("error" in ended.result, false);
    const failed = decodeAttributes("agent_end", "run_1", { errorName: "Boom" }) as {
      result: { error: unknown };
    };
    assert.deepEqual(failed.result.error, { name: "Boom", message: "" });
    const told = decodeAttributes("agent_end", "run_1", { errorName: "Boom", errorMessage: "bad" }) as typeof failed;
    assert.deepEqual(told.result.error, { name: "Boom", message: "bad" });
    assert.deepEqual(decodeAttributes("retry", "run_1", { toolName: "x" }), {
      error: { message: "" },
      toolCall: { name: "x", input: {} },
    });
  });

  test("only span kinds have a role; a kind not declared keeps its scalars and reads back as nothing", () => {
    assert.deepEqual(
      ["agent_start", "agent_end", "llm_request", "llm_response", "tool_call_start", "tool_call_end"].map(spanRoleOf),
      ["agent", "agent", "chat", "chat", "tool", "tool"],
    );
    for (const kind of ["retry", "error", "custom", "__proto__", "toString", "message_appended"])
      assert.equal(spanRoleOf(kind), undefined, kind);
    assert.deepEqual(encodeAttributes("recovery", { strategy: "retry", attempt: 2, detail: { x: 1 }, none: null }), {
      strategy: "retry",
      attempt: 2,
      none: null,
    });
    assert.equal(decodeAttributes("recovery", "run_1", { strategy: "retry" }), undefined);
    assert.equal(decodeAttributes("constructor", "run_1", {}), undefined);
  });
});
