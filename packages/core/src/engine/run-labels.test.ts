import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { mapping, start } from "../test-support/span-mapping.js";
import { ofKind, recordEvents } from "../test-support/events.js";
import { Agent } from "./agent.js";
import { checkRunLabels, mergeRunLabels, RUN_LABEL_LIMITS } from "./run-labels.js";

const agentWith = (options: { metadata?: Record<string, unknown>; tags?: unknown } = {}) =>
  new Agent({ provider: new ScriptedProvider([{ text: "a" }, { text: "b" }]), ...(options as object) });

const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe("run metadata and tags", () => {
  test("a run's metadata goes over the agent's key by key; tags follow the agent's, each once", async () => {
    const agent = agentWith({ metadata: { release: "1.4", env: "prod" }, tags: ["support", "beta"] });
    const seen = recordEvents(agent);
    await agent.run("hi", { metadata: { env: "staging", "user.id": "u_42" }, tags: ["beta", "vip"] });
    await agent.run("again");
    const [first, second] = ofKind(seen, HookEvent.AGENT_START);
    assert.deepEqual(first?.metadata, { release: "1.4", env: "staging", "user.id": "u_42" });
    assert.deepEqual(first?.tags, ["support", "beta", "vip"]);
    assert.ok(Object.isFrozen(first?.metadata) && Object.isFrozen(first?.tags));
    assert.deepEqual(second?.metadata, { release: "1.4", env: "prod" });
    assert.deepEqual(second?.tags, ["support", "beta"]);
  });

  test("a run without any leaves both out of AGENT_START", async () => {
    const agent = agentWith();
    const seen = recordEvents(agent);
    await agent.run("hi");
    const [started] = ofKind(seen, HookEvent.AGENT_START);
    assert.equal("metadata" in started!, false);
    assert.equal("tags" in started!, false);
  });

  test("bounds: the limit itself passes, one more is a ConfigError naming the problem", () => {
    const { entries: most, nameChars, valueChars, tags } = RUN_LABEL_LIMITS;
    assert.doesNotThrow(() => checkRunLabels({ metadata: entries(most) }, "t"));
    assert.throws(() => checkRunLabels({ metadata: entries(most + 1) }, "t"), /65 entries, more than 64/);
    assert.doesNotThrow(() => checkRunLabels({ metadata: { ["k".repeat(nameChars)]: 1 } }, "t"));
    assert.throws(() => checkRunLabels({ metadata: { ["k".repeat(nameChars + 1)]: 1 } }, "t"), ConfigError);
    assert.doesNotThrow(() => checkRunLabels({ metadata: { k: "v".repeat(valueChars) } }, "t"));
    assert.throws(() => checkRunLabels({ metadata: { k: "v".repeat(valueChars + 1) } }, "t"), /more than 1024/);
    const many = Array.from({ length: tags }, (_, i) => `t${i}`);
    assert.doesNotThrow(() => checkRunLabels({ tags: many }, "t"));
    assert.throws(() => checkRunLabels({ tags: [...many, "one more"] }, "t"), /more than 64/);
    // Duplicates count once, as they are kept once.
    assert.deepEqual(checkRunLabels({ tags: [...many, "t0"] }, "t").tags?.length, tags);
    assert.throws(() => mergeRunLabels(checkRunLabels({ tags: many }, "a"), checkRunLabels({ tags: ["x"] }, "r")));
    assert.throws(() =>
      mergeRunLabels(checkRunLabels({ metadata: entries(most) }, "a"), checkRunLabels({ metadata: { x: 1 } }, "r")),
    );
  });

  test("values that cannot be indexed, and names that cannot be typed back, are refused", () => {
    for (const metadata of [{ k: Number.NaN }, { k: { nested: 1 } }, { k: null }, { k: [1] }, [], "text", null])
      assert.throws(() => checkRunLabels({ metadata }, "t"), ConfigError, JSON.stringify(metadata));
    for (const tags of [["", "x"], [" padded"], ["x", 1], "x", { 0: "x" }])
      assert.throws(() => checkRunLabels({ tags }, "t"), ConfigError, JSON.stringify(tags));
    const proto = checkRunLabels({ metadata: JSON.parse('{"__proto__": "kept"}') }, "t");
    assert.deepEqual(Object.entries(proto.metadata ?? {}), [["__proto__", "kept"]]);
  });

  test("bad defaults fail the constructor; bad run options reject the run before it starts", async () => {
    assert.throws(() => agentWith({ tags: "support" }), /AgentOptions: tags must be an array of strings/);
    const agent = agentWith();
    const seen = recordEvents(agent);
    await assert.rejects(agent.run("hi", { metadata: { k: Number.POSITIVE_INFINITY } }), /run options: metadata k/);
    assert.equal(ofKind(seen, HookEvent.AGENT_START).length, 0);
    assert.equal((await agent.run("then")).status, "completed");
  });

  test("the run span carries them: harnessx.run.metadata.*, the conventions' names, harnessx.run.tags", () => {
    const { feed, sink } = mapping();
    feed("agent_start", { ...start, metadata: { "user.id": "u_42", ticket: 981, "session.id": "s_7" }, tags: ["vip"] });
    feed("agent_end", { result: { status: "completed", text: "", pending: [], runId: "run_1", modelCalls: 0 } });
    const run = sink.spans.find((s) => s.role === "agent")!;
    assert.equal(run.attributes["harnessx.run.metadata.user.id"], "u_42");
    assert.equal(run.attributes["harnessx.run.metadata.ticket"], 981);
    assert.equal(run.attributes["user.id"], "u_42");
    assert.equal(run.attributes["session.id"], "s_7");
    assert.equal(run.attributes.ticket, undefined);
    assert.deepEqual(run.attributes["harnessx.run.tags"], ["vip"]);
  });
});
