// An agent's span id source: installed once, removed by the function `use` returns (and only the
// source it installed), and its ids taken for child spans when they stay in the parent's trace.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { SpanIdSource } from "./id-source.js";
import { inScope, SpanScopes } from "./scopes.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const source = (spanId: string, traceId = TRACE): SpanIdSource => ({ open: () => ({ traceId, spanId }) });

describe("a span id source", () => {
  test("its ids are taken for a root span, and for a child in its parent's trace", () => {
    const scopes = new SpanScopes();
    const ids = ["1111111111111111", "6666666666666666"];
    scopes.use({ open: () => ({ traceId: TRACE, spanId: ids.shift()! }) });
    const run = scopes.open("agent", "a", "run_1");
    assert.deepEqual(run, { traceId: TRACE, spanId: "1111111111111111", role: "agent" });
    const child = inScope({ runId: "run_1", span: run }, () => scopes.open("tool", "t", "run_1"));
    assert.deepEqual(child, {
      traceId: TRACE,
      spanId: "6666666666666666",
      role: "tool",
      parentSpanId: "1111111111111111",
    });
  });

  test("a child's ids from the source are refused when they are its parent's own or in another trace", () => {
    const scopes = new SpanScopes();
    const parent = { traceId: TRACE, spanId: "2222222222222222", role: "agent" as const };
    const remove = scopes.use(source("3333333333333333"));
    const taken = inScope({ runId: "run_1", span: parent }, () => scopes.open("tool", "t", "run_1"));
    assert.deepEqual(taken, {
      traceId: TRACE,
      spanId: "3333333333333333",
      role: "tool",
      parentSpanId: "2222222222222222",
    });
    remove();
    const removeSame = scopes.use(source("2222222222222222"));
    const same = inScope({ runId: "run_1", span: parent }, () => scopes.open("tool", "t", "run_1"));
    assert.notEqual(same.spanId, "2222222222222222");
    assert.equal(same.traceId, TRACE);
    removeSame();
    scopes.use(source("3333333333333333", "1".repeat(32)));
    const elsewhere = inScope({ runId: "run_1", span: parent }, () => scopes.open("tool", "t", "run_1"));
    assert.notEqual(elsewhere.spanId, "3333333333333333");
    assert.equal(elsewhere.traceId, TRACE, "the child stays in its parent's trace");
  });

  test("only one source at a time; the remover takes off its own source, not one installed after it", () => {
    const scopes = new SpanScopes();
    const remove = scopes.use(source("4444444444444444"));
    assert.throws(() => scopes.use(source("5555555555555555")), /already has a span id source/);
    remove();
    assert.notEqual(scopes.open("agent", "a", "run_1").spanId, "4444444444444444", "removed: core generates ids");
    scopes.use(source("5555555555555555"));
    remove();
    assert.equal(
      scopes.open("agent", "a", "run_2").spanId,
      "5555555555555555",
      "the stale remover left the new source",
    );
  });
});
