import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { FlightRecorderExtension } from "@harnessx/recorder";
import { OpenTelemetryExtension } from "../otel/extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";
import { startOtlpReceiver, type OtlpReceiver } from "../test-support/otlp-receiver.js";
import { scenarioAgent } from "../test-support/scenario.js";
import { parseOtlpJson, spansToOtlpJsonLines, toOtlpJsonLines, type OtlpSpan } from "./otlp-json.js";
import type { MappedSpan } from "@harnessx/core/tracing";
import { toChromeTrace, type TraceEventEntry } from "./chrome-trace.js";
import { loadRecording, recordScenario, type LoadedRecording } from "../test-support/recording.js";

/** A backend's view of a trace, without ids and times: what must match between live and converted. */
function shape(spans: OtlpSpan[]) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  return spans
    .map((s) => ({
      name: s.name,
      kind: s.kind,
      parent: s.parentSpanId ? (byId.get(s.parentSpanId)?.name ?? "<missing>") : null,
      attributes: s.attributes,
      events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      status: s.status,
    }))
    .sort((a, b) =>
      JSON.stringify([a.name, a.attributes["gen_ai.tool.call.id"], a.attributes["gen_ai.response.id"]]).localeCompare(
        JSON.stringify([b.name, b.attributes["gen_ai.tool.call.id"], b.attributes["gen_ai.response.id"]]),
      ),
    );
}

describe("a recording converts to the same span tree the live extension exported", () => {
  let receiver: OtlpReceiver;
  let live: OtlpSpan[];
  let liveContent: OtlpSpan[];
  let recording: LoadedRecording;
  let recordingWithContent: LoadedRecording;
  const cleanups: Array<() => void> = [];

  async function run(captureContent: boolean): Promise<{ spans: OtlpSpan[]; recording: LoadedRecording }> {
    receiver = await startOtlpReceiver();
    const telemetry = setupTelemetry({ serviceName: "convert-test", url: receiver.url });
    const holder: { dir?: string } = {};
    const recorderFor = (dir: string) => new FlightRecorderExtension({ dir });
    const scenario = scenarioAgent([new OpenTelemetryExtension({ telemetry, captureContent })], {
      extra: (dir) => [recorderFor((holder.dir = join(dir, "recordings")))],
    });
    cleanups.push(scenario.cleanup);
    const result = await scenario.agent.run("How are the regions?");
    assert.equal(result.status, "completed");
    await scenario.agent.close();
    await telemetry.shutdown();
    const spans = receiver.spans.slice();
    await receiver.close();
    return { spans, recording: await loadRecording(holder.dir!, result.runId) };
  }

  before(async () => {
    ({ spans: live, recording } = await run(false));
    ({ spans: liveContent, recording: recordingWithContent } = await run(true));
  });
  after(() => {
    for (const c of cleanups) c();
  });

  test("OTLP JSON Lines: one TracesData per line, hex ids, nanosecond strings", () => {
    const text = toOtlpJsonLines(recording.events, { ...recording.options, serviceName: "convert-test" });
    const lines = text.trim().split("\n");
    assert.equal(lines.length, 1, "one run, one line");
    const data = JSON.parse(lines[0]) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
    };
    const spans = data.resourceSpans[0].scopeSpans[0].spans;
    assert.equal(spans.length, 9);
    for (const s of spans) {
      assert.match(String(s.traceId), /^[0-9a-f]{32}$/);
      assert.match(String(s.spanId), /^[0-9a-f]{16}$/);
      if (s.parentSpanId !== undefined) assert.match(String(s.parentSpanId), /^[0-9a-f]{16}$/);
      assert.match(String(s.startTimeUnixNano), /^\d{19}$/);
      assert.match(String(s.endTimeUnixNano), /^\d{19}$/);
      assert.ok(BigInt(String(s.endTimeUnixNano)) >= BigInt(String(s.startTimeUnixNano)));
    }
  });

  test("names, kinds, parents, attributes, events and statuses match the live export", () => {
    const converted = parseOtlpJson(
      toOtlpJsonLines(recording.events, { ...recording.options, serviceName: "convert-test" }),
    );
    assert.equal(converted.length, live.length);
    assert.deepEqual(shape(converted), shape(live));
  });

  test("with content on both sides, the content attributes match too", () => {
    const converted = parseOtlpJson(
      toOtlpJsonLines(recordingWithContent.events, { ...recordingWithContent.options, captureContent: true }),
    );
    assert.ok(liveContent.some((s) => s.attributes["gen_ai.input.messages"] !== undefined));
    assert.deepEqual(shape(converted), shape(liveContent));
  });

  test("the Chrome trace passes a structural check of the trace-event format", () => {
    const trace = toChromeTrace(recording.events, recording.options);
    const events = trace.traceEvents;
    const phases = new Set(["X", "M", "s", "f", "i"]);
    const named = new Set(
      events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => `${e.pid}:${e.tid}`),
    );
    const slices = new Map<string, TraceEventEntry[]>();
    for (const e of events) {
      assert.ok(phases.has(e.ph), `phase ${e.ph}`);
      assert.ok(Number.isInteger(e.pid) && Number.isInteger(e.tid));
      if (e.ph === "M") continue;
      assert.ok(Number.isInteger(e.ts) && e.ts! >= 0, `${e.name}: ts is whole microseconds`);
      assert.ok(named.has(`${e.pid}:${e.tid}`), `track ${e.pid}:${e.tid} is named`);
      if (e.ph === "X") {
        assert.ok(Number.isInteger(e.dur) && e.dur! >= 0);
        const key = `${e.pid}:${e.tid}`;
        slices.set(key, [...(slices.get(key) ?? []), e]);
      }
    }
    // Per track, slices nest or follow each other: no partial overlap.
    for (const list of slices.values()) {
      const sorted = list.sort((a, b) => a.ts! - b.ts! || b.dur! - a.dur!);
      const open: TraceEventEntry[] = [];
      for (const s of sorted) {
        while (open.length && open[open.length - 1].ts! + open[open.length - 1].dur! <= s.ts!) open.pop();
        if (open.length)
          assert.ok(
            s.ts! + s.dur! <= open[open.length - 1].ts! + open[open.length - 1].dur!,
            `${s.name} overlaps its track partially`,
          );
        open.push(s);
      }
    }
    const x = events.filter((e) => e.ph === "X");
    assert.equal(x.filter((e) => e.cat === "model").length, 3);
    const lookups = x.filter((e) => e.name === "execute_tool lookup");
    assert.equal(lookups.length, 2);
    assert.notEqual(lookups[0].tid, lookups[1].tid, "parallel calls are on separate tracks");
    const runId = recording.events.find((e) => e.kind === "agent_start")?.runId;
    const processes = events.filter((e) => e.ph === "M" && e.name === "process_name").map((e) => String(e.args?.name));
    assert.deepEqual(
      processes,
      [`invoke_agent ${recording.options.agent?.name} (${runId})`],
      "the process is named after its run, never '(undefined)'",
    );
    const starts = events.filter((e) => e.ph === "s");
    const finishes = events.filter((e) => e.ph === "f");
    assert.equal(starts.length, 5, "an arrow from each reply to each tool call it asked for");
    for (const s of starts) {
      const f = finishes.find((g) => g.id === s.id);
      assert.ok(f, `flow ${s.id} has an end`);
      assert.ok(f.ts! >= s.ts!);
      assert.equal(f.bp, "e");
    }
  });
});

describe("the Chrome trace names each run's process", () => {
  test("from the event's run id when AGENT_START's data leaves it out (as recorded payloads do), never as 'undefined'", async () => {
    const { recording, cleanup } = await recordScenario();
    try {
      const runId = recording.events.find((e) => e.kind === "agent_start")?.runId;
      assert.ok(runId);
      const withoutIds = recording.events.map((e) => {
        if (e.kind !== "agent_start") return e;
        const { runId: _left, ...data } = e.data as unknown as Record<string, unknown>;
        return { ...e, data } as unknown as typeof e;
      });
      const names = toChromeTrace(withoutIds, recording.options)
        .traceEvents.filter((e) => e.ph === "M")
        .map((e) => String(e.args?.name));
      assert.ok(names.includes(`invoke_agent ${recording.options.agent?.name} (${runId})`), names.join(", "));
      assert.ok(!names.some((n) => n.includes("undefined")), names.join(", "));
    } finally {
      cleanup();
    }
  });
});

describe("a recording made without content still converts", () => {
  test("OTLP JSON Lines and the Chrome trace, content capture asked or not", async () => {
    const { recording: bare, cleanup } = await recordScenario([], { captureContent: false });
    try {
      for (const captureContent of [false, true]) {
        const spans = parseOtlpJson(toOtlpJsonLines(bare.events, { ...bare.options, captureContent }));
        assert.equal(spans.length, 9);
        assert.equal(spans.filter((s) => s.status.code === 2).length, 2, "the failing and the denied tool");
        assert.ok(spans.find((s) => s.name === "execute_tool big")?.attributes["harnessx.result.spilled"]);
      }
      const trace = toChromeTrace(bare.events, bare.options);
      assert.equal(trace.traceEvents.filter((e) => e.ph === "X").length, 9);
    } finally {
      cleanup();
    }
  });
});

describe("a long run's trace", () => {
  test("is written in lines of at most 1,000 spans that read back as every span, in order", () => {
    const traceId = "ab".repeat(16);
    const spans: MappedSpan[] = Array.from(
      { length: 2_345 },
      (_, i) =>
        ({
          traceId,
          spanId: (i + 1).toString(16).padStart(16, "0"),
          ...(i > 0 ? { parentSpanId: "1".padStart(16, "0") } : {}),
          name: i === 0 ? "invoke_agent long" : `execute_tool t${i}`,
          kind: "INTERNAL",
          role: i === 0 ? "agent" : "tool",
          startMs: 1_700_000_000_000 + i,
          endMs: 1_700_000_000_000 + i + 0.5,
          attributes: { "gen_ai.tool.name": `t${i}` },
          events: [],
          detail:
            i === 0
              ? { role: "agent", start: { runId: "run_long", input: "", model: "m" } }
              : { role: "tool", toolCall: { id: `c${i}`, name: `t${i}`, input: {} } },
        }) as MappedSpan,
    );
    const text = spansToOtlpJsonLines(spans, { serviceName: "long" });
    const lines = text.trim().split("\n");
    assert.equal(lines.length, 3);
    const perLine = lines.map((line) => parseOtlpJson(line).length);
    assert.deepEqual(perLine, [1_000, 1_000, 345]);
    const back = parseOtlpJson(text);
    assert.deepEqual(
      back.map((s) => s.spanId),
      spans.map((s) => s.spanId),
    );
    assert.ok(back.every((s) => s.traceId === traceId && s.serviceName === "long"));
  });
});
