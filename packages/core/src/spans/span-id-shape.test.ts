// W3C trace context ids are lower-case hex of a fixed length, not all zero (an upper-case id is
// invalid there, and a backend would not join it to the same span written in lower case).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { defineExtension } from "../extensions/extension.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import type { SpanIdSource } from "./id-source.js";
import { isSpanId, isTraceId, newSpanId, newTraceId, type SpanContext } from "./span-context.js";

/** An id of `chars` characters: `digit` at `at`, 1 elsewhere (so never all zero). */
const idWith = (chars: number, at: number, digit: string): string =>
  "1".repeat(at) + digit + "1".repeat(chars - at - 1);

describe("isSpanId and isTraceId accept lower-case hex only", () => {
  for (const [name, check, chars] of [
    ["isSpanId", isSpanId, 16],
    ["isTraceId", isTraceId, 32],
  ] as const) {
    test(`${name}: every digit 0-9 and a-f, anywhere`, () => {
      for (const digit of "0123456789abcdef") {
        for (const at of [0, chars - 1]) assert.equal(check(idWith(chars, at, digit)), true, `${digit} at ${at}`);
      }
    });

    test(`${name}: upper-case hex is refused, first, last or whole`, () => {
      for (const digit of "ABCDEF") {
        for (const at of [0, chars - 1]) assert.equal(check(idWith(chars, at, digit)), false, `${digit} at ${at}`);
      }
      assert.equal(check("ABCDEF0123456789".repeat(chars / 16)), false);
      assert.equal(check("abcdef0123456789".repeat(chars / 16)), true, "the same id in lower case");
    });

    test(`${name}: the characters next to the hex ranges are refused`, () => {
      // '/' and ':' border 0-9, '`' and 'g' border a-f, '@' and 'G' border A-F.
      for (const digit of "/:`g@G -x") assert.equal(check(idWith(chars, 3, digit)), false, JSON.stringify(digit));
    });

    test(`${name}: exactly ${chars} characters, not all zero, a string`, () => {
      assert.equal(check("1".repeat(chars)), true);
      assert.equal(check("1".repeat(chars - 1)), false);
      assert.equal(check("1".repeat(chars + 1)), false);
      assert.equal(check("0".repeat(chars)), false, "the all-zero id is invalid");
      assert.equal(check(`${"0".repeat(chars - 1)}1`), true, "one non-zero digit, last, is enough");
      assert.equal(check(`1${"0".repeat(chars - 1)}`), true, "one non-zero digit, first, is enough");
      for (const value of [undefined, null, 1, ["1".repeat(chars)], { length: chars }])
        assert.equal(check(value), false, String(value));
    });
  }

  test("generated ids are valid and distinct", () => {
    const spans = new Set(Array.from({ length: 200 }, newSpanId));
    const traces = new Set(Array.from({ length: 200 }, newTraceId));
    assert.equal(spans.size, 200);
    assert.equal(traces.size, 200);
    assert.ok([...spans].every(isSpanId) && [...traces].every(isTraceId));
  });
});

describe("an id source's upper-case ids are not taken", () => {
  for (const [what, ids] of [
    ["span id", { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00F067AA0BA902B7" }],
    ["trace id", { traceId: "4BF92F3577B34DA6A3CE929D0E0E4736", spanId: "00f067aa0ba902b7" }],
  ] as const) {
    test(`an upper-case ${what}: core generates lower-case ids instead`, async () => {
      const source: SpanIdSource = { open: (start) => (start.role === "agent" ? ids : undefined) };
      const agent = new Agent({
        provider: new ScriptedProvider([{ text: "ok" }]),
        extensions: [defineExtension({ name: "ids", install: (ctx) => void ctx.useSpanIds(source) })],
      });
      let run: SpanContext | undefined;
      agent.hooks.on(HookEvent.AGENT_START, (ctx) => void (run = ctx.span));
      await agent.run("x");
      assert.ok(run && isTraceId(run.traceId) && isSpanId(run.spanId));
      assert.notEqual(run.spanId.toLowerCase(), ids.spanId.toLowerCase());
      assert.notEqual(run.traceId.toLowerCase(), ids.traceId.toLowerCase());
    });
  }

  test("an upper-case outer parent of a root run is left out", async () => {
    const source: SpanIdSource = {
      open: () => ({
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
        spanId: "1111111111111111",
        parentSpanId: "00F067AA0BA902B7",
      }),
    };
    const agent = new Agent({
      provider: new ScriptedProvider([{ text: "ok" }]),
      extensions: [defineExtension({ name: "ids", install: (ctx) => void ctx.useSpanIds(source) })],
    });
    let run: SpanContext | undefined;
    agent.hooks.on(HookEvent.AGENT_START, (ctx) => void (run = ctx.span));
    await agent.run("x");
    assert.equal(run?.spanId, "1111111111111111", "the source's own ids are taken");
    assert.equal(run?.parentSpanId, undefined);
  });
});
