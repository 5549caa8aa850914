// The in-memory sink of the mapping: the ids it gives spans recorded without any, what detail it
// keeps, its redaction of what closes a span; and the stream that feeds it one event at a time.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { Redactor } from "../redact/redactor.js";
import { SpanCollector, type MappedSpan } from "./span-collector.js";
import type { SpanOpen, TraceEvent } from "./span-model.js";
import { SpanStream } from "./span-stream.js";
import { mapSpans } from "./map-spans.js";

const sha = (seed: string, chars: number) => createHash("sha256").update(seed).digest("hex").slice(0, chars);
const KEY = "sk-abcdefghijklmnopqrstuvwx";
const start = { runId: "run_1", input: `use ${KEY}`, model: "m", resumed: false };
const agentOpen = (span?: SpanOpen["span"]): SpanOpen => ({
  role: "agent",
  name: "invoke_agent a",
  kind: "INTERNAL",
  time: 10,
  attributes: {},
  detail: { role: "agent", start },
  ...(span ? { span } : {}),
});
const toolOpen = (time = 11): SpanOpen => ({
  role: "tool",
  name: "execute_tool t",
  kind: "INTERNAL",
  time,
  attributes: {},
  detail: { role: "tool", toolCall: { id: "c1", name: "t", input: { key: KEY } } },
});

describe("ids of spans recorded without any", () => {
  test("derive from the run id and the order of opening: the same recording always maps to the same ids", () => {
    const sink = new SpanCollector();
    const run = sink.open(agentOpen(), undefined);
    const child = sink.open(toolOpen(), run);
    const traceId = sha("trace:run_1", 32);
    assert.deepEqual([run.traceId, run.spanId, run.parentSpanId], [traceId, sha(`span:${traceId}:0`, 16), undefined]);
    assert.deepEqual(
      [child.traceId, child.spanId, child.parentSpanId],
      [traceId, sha(`span:${traceId}:1`, 16), run.spanId],
    );
    assert.equal("parentSpanId" in run, false);
  });

  test("a root span of no run is named by its order", () => {
    const sink = new SpanCollector();
    sink.open(agentOpen(), undefined);
    const orphan = sink.open(toolOpen(), undefined);
    assert.equal(orphan.traceId, sha("trace:1", 32));
  });

  test("ids the event carries win, its parent id included (or none)", () => {
    const sink = new SpanCollector();
    const given = {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      parentSpanId: "1111111111111111",
      role: "agent" as const,
    };
    const run = sink.open(agentOpen(given), undefined);
    assert.deepEqual([run.traceId, run.spanId, run.parentSpanId], [given.traceId, given.spanId, given.parentSpanId]);
    const { parentSpanId: _none, ...root } = given;
    const child = sink.open({ ...toolOpen(), span: { ...root, role: "tool" } }, run);
    assert.equal("parentSpanId" in child, false, "the event's own word: no parent");
  });
});

describe("what a span keeps", () => {
  test("keepDetail false keeps roles and ids, no content: no input, no arguments, no messages, only the calls a reply asked for", () => {
    const sink = new SpanCollector(new Redactor(), false);
    const run = sink.open(agentOpen(), undefined);
    assert.deepEqual(run.detail, { role: "agent", start: { ...start, input: "" } });
    assert.deepEqual(sink.open(toolOpen(), run).detail, { role: "tool", toolCall: { id: "c1", name: "t", input: {} } });
    const request = {
      system: "s",
      model: "m",
      request: {
        model: "m",
        system: "secret system",
        messages: [{ role: "user", content: [] }],
        tools: [{ name: "t" }],
      },
    } as never;
    const chat = sink.open(
      { role: "chat", name: "chat m", kind: "CLIENT", time: 12, attributes: {}, detail: { role: "chat", request } },
      run,
    );
    assert.deepEqual(chat.detail, {
      role: "chat",
      request: { system: "s", model: "m", request: { model: "m", system: "", messages: [], tools: [] } },
    });
    const response = {
      provider: "p",
      response: {
        id: "r",
        content: [
          { type: "text", text: "secret" },
          { type: "tool_call", id: "c2", name: "t", input: { key: KEY } },
        ],
      },
    } as never;
    sink.close(chat, { time: 13, attributes: {}, detail: { role: "chat", request, response } });
    assert.deepEqual(chat.detail, {
      role: "chat",
      request: { system: "s", model: "m", request: { model: "m", system: "", messages: [], tools: [] } },
      response: {
        provider: "p",
        response: { id: "r", content: [{ type: "tool_call", id: "c2", name: "t", input: {} }] },
      },
    });
    const bare = sink.open(
      { role: "chat", name: "chat m", kind: "CLIENT", time: 12, attributes: {}, detail: { role: "chat", request } },
      run,
    );
    sink.close(bare, {
      time: 13,
      attributes: {},
      detail: { role: "chat", request, response: { provider: "p", response: {} } as never },
    });
    assert.deepEqual(
      (bare.detail as { response: { response: { content: unknown } } }).response.response.content,
      [],
      "a reply recorded without content",
    );
    const none = sink.open(
      { role: "chat", name: "chat m", kind: "CLIENT", time: 12, attributes: {}, detail: { role: "chat", request } },
      run,
    );
    sink.close(none, {
      time: 13,
      attributes: {},
      detail: { role: "chat", request, response: { provider: "p" } as never },
    });
    assert.deepEqual(
      (none.detail as { response: { response: { content: unknown } } }).response.response.content,
      [],
      "a reply recorded without its response object",
    );
  });

  test("keepDetail true (the default) keeps the detail as it came", () => {
    const run = new SpanCollector().open(agentOpen(), undefined);
    assert.deepEqual(run.detail, { role: "agent", start });
  });

  test("closing adds the closing attributes and error, both redacted, and never ends before the start", () => {
    const sink = new SpanCollector();
    const tool = sink.open({ ...toolOpen(50), attributes: { "gen_ai.tool.name": "t", note: `key ${KEY}` } }, undefined);
    assert.ok(!String(tool.attributes.note).includes(KEY), "open attributes redacted");
    sink.close(tool, {
      time: 40,
      attributes: { "harnessx.tool.outcome": "failed", out: `got ${KEY}` },
      error: { type: "tool_error", message: `failed with ${KEY}` },
      detail: { role: "tool", toolCall: { id: "c1", name: "t", input: {} } },
    });
    assert.equal(tool.endMs, 50, "a close stamped before the open ends at the open");
    assert.equal(tool.attributes["gen_ai.tool.name"], "t");
    assert.equal(tool.attributes["harnessx.tool.outcome"], "failed");
    assert.ok(!JSON.stringify(tool).includes(KEY), "close attributes and the error message redacted");
    assert.equal(tool.error?.type, "tool_error");
    assert.match(tool.error?.message ?? "", /^failed with \[REDACTED/);
    const later = sink.open(toolOpen(50), undefined);
    sink.close(later, { time: 60, attributes: {}, detail: later.detail });
    assert.deepEqual([later.endMs, later.error], [60, undefined]);
  });

  test("with onSpan, each span is handed over once as it ends with its opening order, and flush hands over the rest", () => {
    const handed: Array<[string, number]> = [];
    const sink = new SpanCollector(new Redactor(), true, (span, order) => handed.push([span.name, order]));
    const run = sink.open(agentOpen(), undefined);
    const first = sink.open({ ...toolOpen(), name: "execute_tool first" }, run);
    sink.open({ ...toolOpen(), name: "execute_tool never" }, run);
    sink.close(first, { time: 20, attributes: {}, detail: first.detail });
    sink.close(first, { time: 21, attributes: {}, detail: first.detail });
    assert.deepEqual(handed, [["execute_tool first", 1]]);
    assert.deepEqual(sink.spans, [], "nothing is kept");
    sink.flush();
    sink.flush();
    assert.deepEqual(handed, [
      ["execute_tool first", 1],
      ["invoke_agent a", 0],
      ["execute_tool never", 2],
    ]);
  });

  test("without onSpan, every span is kept in the order it opened", () => {
    const sink = new SpanCollector();
    const run = sink.open(agentOpen(), undefined);
    sink.open(toolOpen(), run);
    sink.flush();
    assert.deepEqual(
      sink.spans.map((s: MappedSpan) => s.role),
      ["agent", "tool"],
    );
  });
});

describe("the span stream", () => {
  let ts = 0;
  const ev = (kind: string, data: unknown): TraceEvent => ({ kind, ts: ++ts, runId: "run_1", data }) as TraceEvent;
  const reply = (provider: unknown) =>
    ev("llm_response", { response: { content: [] }, provider, model: "m", stopReason: "end_turn" });
  const request = (system = "") =>
    ev("llm_request", { model: "m", maxTokens: 0, request: { model: "m", system, messages: [], tools: [] } });

  test("the run's provider is its first reply's, on the spans opened before the reply too", () => {
    const spans = mapSpans([ev("agent_start", start), request(), reply("acme"), request(), reply("acme")]);
    assert.deepEqual(
      spans.map((s) => s.attributes["gen_ai.provider.name"]),
      ["acme", "acme", "acme"],
    );
  });

  test("a provider the options name is used from the start; a reply naming no provider leaves it out", () => {
    const named = mapSpans([ev("agent_start", start), request(), reply("house"), request(), reply("acme")], {
      agent: { provider: "house" },
    });
    assert.deepEqual(
      named.map((s) => s.attributes["gen_ai.provider.name"]),
      ["house", "house", "acme"],
      "a reply from another provider (a fallback) names it on its call",
    );
    assert.deepEqual(
      mapSpans([ev("agent_start", start), request(), reply(""), request(), reply(undefined)]).map(
        (s) => s.attributes["gen_ai.provider.name"],
      ),
      [undefined, undefined, undefined],
    );
  });

  test("no events, no spans; a reply's provider that is not text is not the run's", () => {
    assert.deepEqual(mapSpans([]), []);
    const [run] = mapSpans([ev("agent_start", start), request(), reply(42)]);
    assert.equal(run.attributes["gen_ai.provider.name"], undefined);
  });

  test("the ids core stamped on the events are the spans' ids", () => {
    const span = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", role: "agent" as const };
    const [run] = mapSpans([{ ...ev("agent_start", start), span }]);
    assert.deepEqual([run.traceId, run.spanId], [span.traceId, span.spanId]);
  });

  test("the agent's name defaults to agent; a session names the conversation", () => {
    assert.equal(mapSpans([ev("agent_start", start)])[0].name, "invoke_agent agent");
    const [run] = mapSpans([ev("agent_start", start)], { agent: { name: "booker", sessionId: "sess_9" } });
    assert.deepEqual([run.name, run.attributes["gen_ai.conversation.id"]], ["invoke_agent booker", "sess_9"]);
  });

  test("defaults: detail kept, content not captured, redaction on, content cut at 8192 characters", () => {
    const [run, chat] = mapSpans([ev("agent_start", start), request("s".repeat(9000))]);
    assert.equal((run.detail as { start: { input: string } }).start.input, start.input);
    assert.equal(chat.attributes["gen_ai.system_instructions"], undefined);
    assert.ok(!JSON.stringify(run.attributes).includes(KEY));
    const [, captured] = mapSpans([ev("agent_start", start), request("s".repeat(9000))], { captureContent: true });
    const [part] = JSON.parse(String(captured.attributes["gen_ai.system_instructions"])) as Array<{
      content: string;
      original_chars: number;
    }>;
    assert.deepEqual([part.content.length, part.original_chars], [8192, 9000]);
    const [, short] = mapSpans([ev("agent_start", start), request("s".repeat(90))], {
      captureContent: true,
      maxContentChars: 10,
    });
    assert.match(String(short.attributes["gen_ai.system_instructions"]), /"original_chars":90/);
    const [open] = mapSpans([ev("agent_start", { ...start, attributes: { note: KEY } })], {
      redactor: new Redactor(false),
    });
    assert.equal(open.attributes.note, KEY, "the redactor the options give");
    assert.equal(mapSpans([ev("agent_start", start)], { keepDetail: false })[0].detail.role, "agent");
  });

  test("spans still open at the end end at the last event; with no event nothing is handed over", () => {
    const [run] = mapSpans([ev("agent_start", start), ev("loop_iteration_start", { iteration: 1 })]);
    assert.equal(run.endMs, ts);
    assert.equal(run.attributes["harnessx.run.status"], "unfinished");
    const handed: MappedSpan[] = [];
    new SpanStream({ agent: { provider: "p" } }, (span) => handed.push(span)).end();
    assert.deepEqual(handed, []);
  });
});
