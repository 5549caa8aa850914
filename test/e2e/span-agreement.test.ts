// One span identity: the live OpenTelemetry spans, the recording's `spans` table, `trace convert
// --to otlp`, and the same run read back from its incident bundle name the same spans: trace id,
// span ids, parents, names and error statuses, for a run with a retry, concurrent tools and a
// failing tool.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { SpanStatusCode } from "@opentelemetry/api";
import { Agent, FlightRecorderExtension, OpenTelemetryExtension, ScriptedProvider, runDirOf, tool } from "harnessx";
import { cliWorkspace } from "@harnessx/cli/test-support";

/** What every form must agree on, one span per entry. */
interface SpanFacts {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  error: boolean;
}

const sorted = (spans: SpanFacts[]) => [...spans].sort((a, b) => a.spanId.localeCompare(b.spanId));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tools = [
  tool({
    name: "lookup",
    description: "Status of a region.",
    concurrent: true,
    execute: async ({ region }) => {
      await sleep(25);
      return `${String(region)}: up`;
    },
  }),
  tool({
    name: "broken",
    description: "Always fails.",
    execute: () => {
      throw new Error("backend unavailable");
    },
  }),
];

const cli = cliWorkspace("hx-agreement-");

let runId: string;
let live: SpanFacts[];

async function trace(...args: string[]): Promise<string> {
  const r = await cli.trace(...args);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

before(async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const agent = new Agent({
    name: "support",
    provider: new ScriptedProvider(
      [
        { error: { status: 429, message: "slow down" } },
        {
          toolCalls: [
            { id: "a", name: "lookup", input: { region: "eu" } },
            { id: "b", name: "lookup", input: { region: "us" } },
          ],
        },
        { toolCalls: [{ id: "c", name: "broken", input: {} }] },
        { text: "EU and US are up; the backend is not." },
      ],
      { model: "scripted-model" },
    ),
    tools,
    retry: { initialDelayMs: 1, maxDelayMs: 2 },
    extensions: [
      new FlightRecorderExtension({ dir: cli.store }),
      new OpenTelemetryExtension({ tracer: provider.getTracer("agreement") }),
    ],
  });
  const result = await agent.run("How are the regions?");
  assert.equal(result.status, "completed");
  runId = result.runId;
  await agent.close();
  await provider.forceFlush();
  live = exporter.getFinishedSpans().map((s: ReadableSpan) => ({
    traceId: s.spanContext().traceId,
    spanId: s.spanContext().spanId,
    parentSpanId: s.parentSpanContext?.spanId ?? null,
    name: s.name,
    error: s.status.code === SpanStatusCode.ERROR,
  }));
  await provider.shutdown();
});
after(() => cli.cleanup());

const SPANS_SQL = "SELECT trace_id, span_id, parent_span_id, name, status FROM spans";
const fromTable = (json: string): SpanFacts[] =>
  (
    JSON.parse(json) as Array<{
      trace_id: string;
      span_id: string;
      parent_span_id: string | null;
      name: string;
      status: string;
    }>
  ).map((r) => ({
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    name: r.name,
    error: r.status === "error",
  }));

interface OtlpDocument {
  resourceSpans: Array<{
    scopeSpans: Array<{
      spans: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        status?: { code?: number };
      }>;
    }>;
  }>;
}
const fromOtlp = (json: string): SpanFacts[] =>
  (JSON.parse(json) as OtlpDocument).resourceSpans
    .flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
    .map((s) => ({
      traceId: s.traceId,
      spanId: s.spanId,
      parentSpanId: s.parentSpanId || null,
      name: s.name,
      error: s.status?.code === 2,
    }));

describe("the live trace, the recording and every converted form name the same spans", () => {
  test("the live trace has the run's shape: a retry, two concurrent tool calls, a failing one", () => {
    const names = live.map((s) => s.name).sort();
    assert.deepEqual(names, [
      "chat scripted-model",
      "chat scripted-model",
      "chat scripted-model",
      "execute_tool broken",
      "execute_tool lookup",
      "execute_tool lookup",
      "invoke_agent support",
    ]);
    assert.equal(new Set(live.map((s) => s.traceId)).size, 1);
    assert.deepEqual(
      live.filter((s) => s.error).map((s) => s.name),
      ["execute_tool broken"],
    );
  });

  test("run.json carries the live trace id", () => {
    const manifest = JSON.parse(readFileSync(join(runDirOf(cli.store, runId), "run.json"), "utf8")) as {
      traceId?: string;
    };
    assert.equal(manifest.traceId, live[0]!.traceId);
  });

  test("the spans table of the recording", async () => {
    assert.deepEqual(sorted(fromTable(await trace("--json", "query", runId, SPANS_SQL))), sorted(live));
  });

  test("trace convert --to otlp, twice, byte for byte", async () => {
    const first = await trace("convert", runId, "--to", "otlp");
    assert.deepEqual(sorted(fromOtlp(first)), sorted(live));
    assert.equal(await trace("convert", runId, "--to", "otlp"), first, "converting again gives the same bytes");
  });

  test("the run read from its incident bundle: the spans table and the OTLP conversion", async () => {
    const bundle = join(cli.work, "incident.tar");
    await trace("export", runId, "-o", bundle, "--reason", "agreement");
    assert.deepEqual(sorted(fromTable(await trace("--json", "query", bundle, SPANS_SQL))), sorted(live));
    assert.deepEqual(sorted(fromOtlp(await trace("convert", bundle, "--to", "otlp"))), sorted(live));
  });
});
