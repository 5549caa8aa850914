// What the run span of the one mapping carries, attribute by attribute: the names and values the
// OpenTelemetry GenAI conventions and harnessx's own namespace give a run, and what is left out
// (absent values, declared attributes in reserved namespaces).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AgentStartData } from "../hooks/payloads.js";
import type { RunResult } from "../engine/run-types.js";
import { agent } from "../test-support/span-specs.js";
import { agentClose, agentOpen } from "./span-specs.js";

const start: AgentStartData = { runId: "run_1", input: "hi", model: "m-1", resumed: false };
const result = (over: Partial<RunResult>): RunResult =>
  ({
    status: "completed",
    text: "",
    pending: [],
    usage: { inputTokens: 10, outputTokens: 5, cost: { usd: 0.25, unpricedCalls: 0 } },
    runId: "run_1",
    modelCalls: 1,
    ...over,
  }) as RunResult;

describe("the run span (invoke_agent)", () => {
  test("opens with the agent, its conversation, provider, model and run id", () => {
    const open = agentOpen(agent, start, 1000);
    assert.deepEqual(open, {
      role: "agent",
      name: "invoke_agent helper",
      kind: "INTERNAL",
      time: 1000,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "acme",
        "gen_ai.conversation.id": "sess_1",
        "gen_ai.agent.name": "helper",
        "gen_ai.request.model": "m-1",
        "harnessx.run.id": "run_1",
      },
      detail: { role: "agent", start },
    });
  });

  test("without a provider, a session or a model those attributes are left out; a resumed run says so", () => {
    const open = agentOpen({ name: "bare" }, { ...start, model: "", resumed: true }, 1);
    assert.deepEqual(open.attributes, {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "bare",
      "harnessx.run.id": "run_1",
      "harnessx.run.resumed": true,
    });
  });

  test("declared run attributes are kept outside the reserved namespaces; only the framework name passes from harnessx's", () => {
    const attributes = {
      "app.tenant": "acme",
      "app.shard": 3,
      "app.beta": false,
      "app.tags": ["a", "b"],
      "app.mixed": ["a", 1],
      "app.object": { x: 1 },
      "gen_ai.agent.name": "forged",
      "gen_ai.custom": "forged",
      "harnessx.run.id": "forged",
      "harnessx.other": "forged",
      "harnessx.framework": "ai-sdk",
    };
    const open = agentOpen(agent, { ...start, attributes: attributes as never }, 1);
    assert.deepEqual(open.attributes, {
      "app.tenant": "acme",
      "app.shard": 3,
      "app.beta": false,
      "app.tags": ["a", "b"],
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "acme",
      "gen_ai.conversation.id": "sess_1",
      "gen_ai.agent.name": "helper",
      "gen_ai.request.model": "m-1",
      "harnessx.run.id": "run_1",
      "harnessx.framework": "ai-sdk",
    });
    assert.equal(
      agentOpen(agent, { ...start, attributes: { "harnessx.framework": 7 } as never }, 1).attributes[
        "harnessx.framework"
      ],
      undefined,
      "a framework name must be text",
    );
  });

  test("closes with the status, tokens and cost of the run", () => {
    const close = agentClose(
      start,
      result({
        usage: {
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 2,
          cacheWriteTokens: 1,
          cost: { usd: 0.25, unpricedCalls: 2 },
        } as never,
      }),
      2000,
    );
    assert.deepEqual(close.attributes, {
      "harnessx.run.status": "completed",
      "gen_ai.usage.input_tokens": 10,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.usage.cache_read.input_tokens": 2,
      "gen_ai.usage.cache_creation.input_tokens": 1,
      "harnessx.cost.usd": 0.25,
      "harnessx.cost.unpriced_calls": 2,
    });
    assert.equal(close.error, undefined);
    assert.equal(close.time, 2000);
    assert.equal((close.detail as { result?: RunResult }).result?.status, "completed", "the detail keeps the result");
    assert.deepEqual(
      agentClose(start, result({ usage: undefined as never }), 1).attributes,
      { "harnessx.run.status": "completed" },
      "a recorded result without usage",
    );
  });

  test("a run without a known cost has no cost attribute; no unpriced calls, no count", () => {
    const close = agentClose(
      start,
      result({ usage: { inputTokens: 1, outputTokens: 1, cost: { usd: null, unpricedCalls: 0 } } as never }),
      1,
    );
    assert.deepEqual(close.attributes, {
      "harnessx.run.status": "completed",
      "gen_ai.usage.input_tokens": 1,
      "gen_ai.usage.output_tokens": 1,
    });
    const recorded = agentClose(start, result({ usage: { inputTokens: "1", outputTokens: null } as never }), 1);
    assert.deepEqual(
      recorded.attributes,
      { "harnessx.run.status": "completed" },
      "token counts that are not numbers are left out",
    );
  });

  test("a failed run is an error of its code; a cancelled one of type cancelled; an unfinished one says so", () => {
    const failed = agentClose(
      start,
      result({
        status: "failed",
        error: Object.assign(new Error("model refused"), { code: "provider_refusal" }) as never,
      }),
      1,
    );
    assert.deepEqual(failed.error, { type: "provider_refusal", message: "model refused" });
    assert.equal(failed.attributes["error.type"], "provider_refusal");
    assert.deepEqual(
      agentClose(start, result({ status: "failed" }), 1).error,
      { type: "run_failed", message: "" },
      "without an error: run_failed",
    );
    const cancelled = agentClose(start, result({ status: "cancelled" }), 1);
    assert.deepEqual(cancelled.error, { type: "cancelled", message: "the run was cancelled" });
    assert.equal(cancelled.attributes["error.type"], "cancelled");
    const unfinished = agentClose(start, undefined, 1);
    assert.deepEqual(unfinished, {
      time: 1,
      attributes: { "harnessx.run.status": "unfinished" },
      detail: { role: "agent", start },
    });
    assert.deepEqual(agentClose(start, result({ status: "awaiting_approval" }), 1).error, undefined);
  });
});
