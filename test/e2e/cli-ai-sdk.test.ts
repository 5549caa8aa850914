// Runs made with the AI SDK 7 (real generateText, the SDK's mock language model, a real tool, 3
// steps) and recorded with recordAiSdk answer the trace CLI as native runs do: summary, the spans
// table, and convert to OTLP.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { SpanStatusCode } from "@opentelemetry/api";
import { OpenTelemetryExtension } from "harnessx";
import { recordWeatherRun, WEATHER_RUN } from "@harnessx/recorder/test-support";
import { cliWorkspace } from "@harnessx/cli/test-support";
import { otlpAttr, readOtlpSpans } from "../support/otlp-lines.js";
import { runAndCalls, SPAN_ROWS, type SpanRow } from "../support/span-rows.js";

const cli = cliWorkspace("hx-ai-sdk-");
let okRun: string;
let failedToolRun: string;
let failedModelRun: string;

async function json<T>(...args: string[]): Promise<T> {
  const r = await cli.trace("--json", ...args);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

before(async () => {
  okRun = (await recordWeatherRun({ recorder: { dir: cli.store } })).runId;
  failedToolRun = (await recordWeatherRun({ recorder: { dir: cli.store } }, { failingTool: true })).runId;
  failedModelRun = (
    await recordWeatherRun({ recorder: { dir: cli.store } }, { modelError: new Error("upstream 503: overloaded") })
  ).runId;
});
after(() => cli.cleanup());

describe("trace summary of an AI SDK run", () => {
  test("its model with the tokens of the three calls, and its tool's calls", async () => {
    const s = await json<{
      status: string;
      models: Array<{ model: string; calls: number; inputTokens: number; outputTokens: number }>;
      tools: Array<{ tool: string; calls: number; errors: number }>;
    }>("summary", okRun);
    assert.equal(s.status, "completed");
    const input = WEATHER_RUN.usage.reduce((n, u) => n + u.input, 0);
    const output = WEATHER_RUN.usage.reduce((n, u) => n + u.output, 0);
    assert.deepEqual(
      s.models.map((m) => [m.model, m.inputTokens, m.outputTokens]),
      [[WEATHER_RUN.model, input, output]],
    );
    assert.deepEqual(
      s.tools.map((t) => [t.tool, t.calls, t.errors]),
      [["weather", 2, 0]],
    );
  });

  test("a failing tool is counted as the tool's error; a failing model fails the run with its message", async () => {
    const tools = await json<{ tools: Array<{ tool: string; calls: number; errors: number }> }>(
      "summary",
      failedToolRun,
    );
    assert.deepEqual(
      tools.tools.map((t) => [t.tool, t.calls, t.errors]),
      [["weather", 2, 1]],
    );
    const failed = await json<{ status: string; error: { message: string } }>("summary", failedModelRun);
    assert.equal(failed.status, "failed");
    assert.match(failed.error.message, /upstream 503/);
  });

  test("the text summary names the framework, the model and the tool", async () => {
    const r = await cli.trace("summary", okRun);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`${okRun}  \\(ai-sdk, made with ai-sdk\\)`));
    assert.match(r.stdout, /status\s+completed/);
    assert.match(r.stdout, new RegExp(`${WEATHER_RUN.model}\\s+3\\s+780\\s+67`));
    assert.match(r.stdout, /weather/);
  });
});

describe("trace ls of AI SDK runs", () => {
  test("each run names the framework that made it", async () => {
    const runs = await json<Array<{ runId: string; framework: string | null; status: string }>>("ls");
    assert.deepEqual(
      [okRun, failedToolRun, failedModelRun]
        .map((id) => runs.find((r) => r.runId === id))
        .map((r) => [r?.framework, r?.status]),
      [
        ["ai-sdk", "completed"],
        ["ai-sdk", "completed"],
        ["ai-sdk", "failed"],
      ],
    );
    const text = await cli.trace("ls");
    assert.match(text.stdout, /ai-sdk \(ai-sdk\)/);
  });
});

describe("trace query on the spans table", () => {
  test("names, parents and tokens of every span", async () => {
    const { root, calls: children } = runAndCalls(await json<SpanRow[]>("query", okRun, SPAN_ROWS));
    assert.equal(root.name, "invoke_agent ai-sdk");
    assert.deepEqual([root.input_tokens, root.output_tokens], [780, 67]);
    // Spans that start in the same millisecond (a mock model answers at once) have no order in the table: compare as sets.
    const sorted = <T>(xs: T[]) => xs.map((x) => JSON.stringify(x)).sort();
    assert.deepEqual(
      sorted(children.map((r) => r.name)),
      sorted([
        "chat mock-weather-model",
        "execute_tool weather",
        "chat mock-weather-model",
        "execute_tool weather",
        "chat mock-weather-model",
      ]),
    );
    assert.deepEqual(
      sorted(children.filter((r) => r.kind === "model").map((r) => [r.input_tokens, r.output_tokens])),
      sorted(WEATHER_RUN.usage.map((u) => [u.input, u.output])),
    );
  });

  test("the failed model call's span is an error span", async () => {
    const rows = await json<Array<{ kind: string; status: string }>>(
      "query",
      failedModelRun,
      "SELECT kind, status FROM spans WHERE kind = 'model' ORDER BY start_ts",
    );
    assert.deepEqual(rows.map((r) => r.status).sort(), ["error", "ok"], "one call answered, the other failed");
  });
});

describe("trace convert of an AI SDK run", () => {
  test("--to otlp: the run's spans with the GenAI attributes and the framework", async () => {
    const out = join(cli.work, "ai-sdk.otlp.jsonl");
    const r = await cli.trace("convert", okRun, "--to", "otlp", "-o", out);
    assert.equal(r.code, 0, r.stderr);
    const spans = readOtlpSpans(out);
    const root = spans.find((s) => s.name === "invoke_agent ai-sdk")!;
    assert.equal(otlpAttr(root, "harnessx.framework")?.stringValue, "ai-sdk");
    const chats = spans.filter((s) => s.name.startsWith("chat "));
    assert.equal(chats.length, 3);
    assert.ok(chats.every((s) => s.parentSpanId === root.spanId && s.traceId === root.traceId));
    assert.equal(otlpAttr(chats[0]!, "gen_ai.provider.name")?.stringValue, WEATHER_RUN.provider);
    assert.equal(Number(otlpAttr(chats[0]!, "gen_ai.usage.input_tokens")?.intValue), WEATHER_RUN.usage[0].input);
    assert.equal(spans.filter((s) => s.name === "execute_tool weather").length, 2);
  });
});

describe("the rest of the trace CLI reads an AI SDK run", () => {
  test("show, export, verify, scrub and report", async () => {
    const shown = await cli.trace("show", failedToolRun, "--errors");
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /weather service unavailable for Bergen/);
    const bundle = join(cli.work, "ai-sdk.tar");
    assert.equal((await cli.trace("export", okRun, "-o", bundle)).code, 0);
    assert.equal((await cli.trace("verify", bundle)).code, 0);
    const fromBundle = await json<{ runId: string; tools: Array<{ tool: string; calls: number }> }>("summary", bundle);
    assert.deepEqual([fromBundle.runId, fromBundle.tools.map((t) => [t.tool, t.calls])], [okRun, [["weather", 2]]]);
    assert.equal((await cli.trace("scrub", bundle, "-o", join(cli.work, "ai-sdk-scrubbed.tar"))).code, 0);
    const report = join(cli.work, "ai-sdk.html");
    const r = await cli.trace("report", okRun, "-o", report);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(readFileSync(report, "utf8").includes(okRun), "the report names the run");
  });
});

describe("one span identity with a live exporter beside the recorder", () => {
  test("the OpenTelemetry spans of an AI SDK run are the spans table's: ids, parents, names, error statuses", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const otel = new OpenTelemetryExtension({ tracer: provider.getTracer("ai-sdk") });
    const { runId } = await recordWeatherRun(
      { recorder: { dir: cli.store }, extensions: [otel] },
      { failingTool: true },
    );
    await provider.forceFlush();
    const facts = (f: { traceId: string; spanId: string; parentSpanId: string | null; name: string; error: boolean }) =>
      `${f.traceId} ${f.spanId} ${f.parentSpanId ?? "-"} ${f.name} ${f.error}`;
    const live = exporter.getFinishedSpans().map((s) =>
      facts({
        traceId: s.spanContext().traceId,
        spanId: s.spanContext().spanId,
        parentSpanId: s.parentSpanContext?.spanId ?? null,
        name: s.name,
        error: s.status.code === SpanStatusCode.ERROR,
      }),
    );
    await provider.shutdown();
    const rows = await json<
      Array<{ trace_id: string; span_id: string; parent_span_id: string | null; name: string; status: string }>
    >("query", runId, "SELECT trace_id, span_id, parent_span_id, name, status FROM spans");
    const recorded = rows.map((r) =>
      facts({
        traceId: r.trace_id,
        spanId: r.span_id,
        parentSpanId: r.parent_span_id,
        name: r.name,
        error: r.status === "error",
      }),
    );
    assert.equal(live.length, 6);
    assert.deepEqual(recorded.sort(), live.sort());
    assert.equal(live.filter((f) => f.endsWith(" true")).length, 1, "the failed tool call");
  });
});
