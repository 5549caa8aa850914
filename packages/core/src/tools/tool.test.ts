import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HookEvent } from "../hooks/events.js";
import { ToolRegistrationError } from "../errors.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { Agent } from "../engine/agent.js";
import { tool } from "./tool.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";

function once(t: ReturnType<typeof tool>, options: { maxResultChars?: number } = {}) {
  const provider = new ScriptedProvider([{ toolCalls: [{ name: t.name, input: {} }] }, { text: "ok" }], {
    recordRequests: true,
  });
  const agent = new Agent({ provider, tools: [t], limits: options });
  const seen = recordEvents(agent);
  return { provider, seen, go: () => agent.run("x") };
}

describe("tool definitions", () => {
  test("bad names, missing handlers and non-object schemas are refused", () => {
    assert.throws(() => tool({ name: "has space", description: "", execute: () => "" }), ToolRegistrationError);
    assert.throws(() => tool({ name: "x", description: "", execute: undefined as never }), /no execute/);
    assert.throws(
      () => tool({ name: "x", description: "", inputSchema: { type: "string" }, execute: () => "" }),
      /must describe an object/,
    );
  });
});

describe("execution settings", () => {
  test("timeoutSeconds cuts a slow handler into an error result", async () => {
    const { seen, go } = once(
      tool({
        name: "slow",
        description: "s",
        timeoutSeconds: 0.03,
        execute: () => new Promise((r) => setTimeout(() => r("late"), 2000)),
      }),
    );
    await go();
    const end = ofKind(seen, HookEvent.TOOL_CALL_END)[0];
    assert.equal(end.outcome, "timeout");
    assert.match(end.result.content, /timed out after 0.03 s/);
  });

  test("retry re-runs a throwing handler with backoff and reports RETRY", async () => {
    let calls = 0;
    const { seen, go } = once(
      tool({
        name: "flaky",
        description: "f",
        retry: { attempts: 3, backoffMs: 1 },
        execute: () => {
          if (++calls < 3) throw new Error(`fail ${calls}`);
          return "third time";
        },
      }),
    );
    await go();
    assert.equal(calls, 3);
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].result.content, "third time");
    assert.deepEqual(
      ofKind(seen, HookEvent.RETRY).map((r) => [r.target, r.attempt, r.error.message]),
      [
        ["tool", 1, "fail 1"],
        ["tool", 2, "fail 2"],
      ],
    );
  });

  test("retryIfResult asks for another attempt on a result it dislikes", async () => {
    let calls = 0;
    const { seen, go } = once(
      tool({
        name: "poll",
        description: "p",
        retry: { attempts: 5, backoffMs: 1 },
        retryIfResult: (r) => r.content === "pending",
        execute: () => (++calls < 3 ? "pending" : "ready"),
      }),
    );
    await go();
    assert.equal(calls, 3);
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].result.content, "ready");
  });

  test("retries stop at the attempt limit with the last error", async () => {
    const { seen, go } = once(
      tool({
        name: "dead",
        description: "d",
        retry: { attempts: 2, backoffMs: 1 },
        execute: () => {
          throw new Error("still dead");
        },
      }),
    );
    await go();
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].result.content, "Error: still dead");
  });
});

describe("long results are cut for the model only", () => {
  test("the model sees a marked cut; hooks see the whole result", async () => {
    const big = "x".repeat(5000);
    const { provider, seen, go } = once(tool({ name: "big", description: "b", execute: () => big }), {
      maxResultChars: 1000,
    });
    await go();
    assert.equal(ofKind(seen, HookEvent.TOOL_CALL_END)[0].result.content.length, 5000);
    const sent = (provider.requests[1].messages.at(-1)!.content[0] as { content: string }).content;
    assert.ok(sent.startsWith("x".repeat(1000)));
    assert.match(sent, /result truncated: showing the first 1000 of 5000 characters/);
    assert.ok(sent.length < 1200);
  });

  test("object results are sent as JSON", async () => {
    const { provider, go } = once(tool({ name: "obj", description: "o", execute: () => ({ a: [1, 2] }) }));
    await go();
    assert.equal((provider.requests[1].messages.at(-1)!.content[0] as { content: string }).content, '{"a":[1,2]}');
  });
});
