/**
 * Cost of OpenTelemetryExtension on the real SDK, side by side in one process:
 *   1. the SDK's bare create+end of a span (BatchSpanProcessor, no-op exporter),
 *   2. N agent runs without tracing, 3. the same N runs with the extension.
 * Every loop yields to the event loop (the BatchSpanProcessor drops spans when
 * it never does; section 4 shows that the counting pipeline sees such drops).
 * Usage: node --expose-gc --import tsx test/bench/tracing.bench.ts [iterations]
 * (or TRACING_BENCH_N; default 10000, 200 under BENCH_SMALL=1)
 */
import { Agent, ScriptedProvider, tool, type ModelRequest } from "@harnessx/core";
import { Redactor } from "@harnessx/core/extension";
import { redactAttributes, type Attributes, type RepeatedValues } from "@harnessx/core/tracing";
import { OpenTelemetryExtension } from "@harnessx/exporters/otel";
import { countingBatchProcessor } from "@harnessx/exporters/otel-setup";
import { ROOT_CONTEXT, SpanKind, trace, type Tracer } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { BasicTracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { median, report, sized } from "./support/report.js";

const N = Number(process.argv[2] ?? process.env.TRACING_BENCH_N ?? sized(10_000, 200));
/** Each variant runs N iterations in CHUNKS interleaved slices, so load from other processes hits all alike. */
const CHUNKS = 10;
const SPANS_PER_RUN = 4; // invoke_agent + 2 chat + 1 execute_tool

const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: async () => {},
};

function pipeline() {
  const processor = countingBatchProcessor(noopExporter);
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return { counts: processor.counts, processor, provider, tracer: provider.getTracer("bench") };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The SDK's bare create+end, one span per iteration. */
async function bareSpans(count: number, tracer: Tracer): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    tracer.startSpan("bare").end();
    if ((i & 63) === 63) await yieldToLoop();
  }
  return performance.now() - start;
}

/**
 * The same four spans and attributes a run gets, made directly: the floor for any GenAI-conformant
 * tracing. With `redact`, every attribute set first goes through core's redaction as the extension
 * must send it (each run's ids new, as a real run's are): the floor for tracing that redacts at the source.
 */
async function directRunSpans(
  count: number,
  tracer: Tracer,
  redact?: (attributes: Attributes) => Attributes,
): Promise<number> {
  const base = { "gen_ai.provider.name": "scripted", "gen_ai.conversation.id": "session" };
  const clean = redact ?? ((attributes: Attributes) => attributes);
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const id = redact ? `${i.toString(36)}${count}` : "";
    const run = tracer.startSpan("invoke_agent bench", {
      attributes: clean({
        ...base,
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "bench",
        "gen_ai.request.model": "m",
        "harnessx.run.id": `run${id}`,
      }),
    });
    const ctx = trace.setSpan(ROOT_CONTEXT, run);
    for (let c = 0; c < 2; c++) {
      const chat = tracer.startSpan(
        "chat m",
        {
          kind: SpanKind.CLIENT,
          attributes: clean({
            ...base,
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": "m",
            "gen_ai.request.max_tokens": 4096,
          }),
        },
        ctx,
      );
      chat.setAttributes(
        clean({
          "gen_ai.response.id": `r${id}${c}`,
          "gen_ai.response.model": "m",
          "gen_ai.response.finish_reasons": ["end_turn"],
          "gen_ai.usage.input_tokens": 10,
          "gen_ai.usage.output_tokens": 5,
        }),
      );
      chat.end();
      if (c === 0) {
        const t = tracer.startSpan(
          "execute_tool echo",
          {
            attributes: clean({
              ...base,
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": "echo",
              "gen_ai.tool.call.id": `call${id}`,
              "gen_ai.tool.type": "function",
            }),
          },
          ctx,
        );
        t.setAttributes(clean({ "harnessx.tool.outcome": "executed" }));
        t.end();
      }
    }
    run.setAttributes(
      clean({ "harnessx.run.status": "completed", "gen_ai.usage.input_tokens": 20, "gen_ai.usage.output_tokens": 10 }),
    );
    run.end();
    if ((i & 15) === 15) await yieldToLoop();
  }
  return performance.now() - start;
}

const echo = tool({
  name: "echo",
  description: "Echo.",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  execute: ({ n }) => `echo ${String(n)}`,
});

function makeAgent(extensions: OpenTelemetryExtension[]): Agent {
  const step = (_req: ModelRequest, index: number) =>
    index % 2 === 0 ? { toolCalls: [{ name: "echo", input: { n: index } }] } : { text: "done" };
  return new Agent({
    context: { condense: false },
    name: "bench",
    provider: new ScriptedProvider(Array.from({ length: 2 * N + 2000 }, () => step)),
    tools: [echo],
    extensions,
  });
}

async function runs(agent: Agent, count: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    await agent.run("go");
    agent.memory.replace([]);
    await yieldToLoop();
  }
  return performance.now() - start;
}

async function main(): Promise<void> {
  const bare = pipeline();
  const direct = pipeline();
  const redactedDirect = pipeline();
  const traced = pipeline();
  // The extension's policy: the agent's redactor (default rules), with a sink's small map of values every span repeats.
  const redactor = new Redactor();
  const repeated: RepeatedValues = new Map();
  const redact = (attributes: Attributes) => redactAttributes(attributes, redactor, repeated);
  const plain = makeAgent([]);
  const withTracing = makeAgent([new OpenTelemetryExtension({ tracer: traced.tracer, telemetry: traced.processor })]);
  const variants: Array<[string, (n: number) => Promise<number>]> = [
    ["bare", (n) => bareSpans(n, bare.tracer)],
    ["direct", (n) => directRunSpans(n, direct.tracer)],
    ["redacted", (n) => directRunSpans(n, redactedDirect.tracer, redact)],
    ["plain", (n) => runs(plain, n)],
    ["traced", (n) => runs(withTracing, n)],
  ];
  for (const [, run] of variants) await run(sized(500, 50)); // JIT warm-up
  const perIteration = new Map<string, number[]>(variants.map(([name]) => [name, []]));
  const slice = Math.max(1, Math.floor(N / CHUNKS));
  for (let c = 0; c < CHUNKS; c++) {
    for (let v = 0; v < variants.length; v++) {
      const [name, run] = variants[(v + c) % variants.length];
      perIteration.get(name)!.push(((await run(slice)) * 1000) / slice);
    }
  }
  await traced.processor.forceFlush();

  const bareSpan = median(perIteration.get("bare")!);
  const directSpan = median(perIteration.get("direct")!) / SPANS_PER_RUN;
  const redactedSpan = median(perIteration.get("redacted")!) / SPANS_PER_RUN;
  const plainRun = median(perIteration.get("plain")!);
  const tracedRun = median(perIteration.get("traced")!);
  const extensionSpan = (tracedRun - plainRun) / SPANS_PER_RUN;
  console.log(
    `tracing bench: ${slice * CHUNKS} iterations per variant in ${CHUNKS} interleaved slices (medians); BatchSpanProcessor + no-op exporter; every loop yields`,
  );
  console.log(
    `  traced pipeline: spans ended ${traced.counts.ended}, exported ${traced.counts.exported}, dropped ${traced.counts.dropped()}`,
  );
  report("tracing", [
    {
      measure: "OTel: traced run vs untraced",
      unit: "ms per run",
      harnessx: tracedRun / 1000,
      anchor: plainRun / 1000,
      anchorName: "untraced run",
      aim: { on: "ratio", op: "<=", target: 1.1 },
      note: `${SPANS_PER_RUN} spans per run`,
    },
    {
      measure: "OTel: extension cost per span vs hand-written SDK calls",
      unit: "µs per span",
      harnessx: extensionSpan,
      anchor: directSpan,
      anchorName: "hand-written SDK calls, same attributes",
      aim: { on: "ratio", op: "<=", target: 1 },
      note: "(traced run - untraced run) / spans",
    },
    {
      measure: "floor: hand-written SDK calls + core's redaction of the same attribute values (ids new each run)",
      unit: "µs per span",
      harnessx: redactedSpan,
      anchor: directSpan,
      anchorName: "hand-written SDK calls, same attributes",
    },
    {
      measure: "OTel: extension cost per span vs that floor",
      unit: "µs per span",
      harnessx: extensionSpan,
      anchor: redactedSpan,
      anchorName: "hand-written calls + redaction",
    },
    // Context, no aim: what one span costs the SDK itself, attributes aside.
    {
      measure: "OTel: extension cost per span vs a bare SDK span",
      unit: "µs per span",
      harnessx: extensionSpan,
      anchor: bareSpan,
      anchorName: "bare SDK span",
    },
  ]);
  // What the batch processor does to a loop that never yields, and that the counting pipeline sees it.
  const starved = pipeline();
  for (let i = 0; i < 5000; i++) starved.tracer.startSpan("no-yield").end();
  await starved.processor.forceFlush();
  console.log(
    `  no-yield loop of 5000 spans: exported ${starved.counts.exported}, dropped and counted ${starved.counts.dropped()}`,
  );
  await Promise.all([
    bare.provider.shutdown(),
    direct.provider.shutdown(),
    redactedDirect.provider.shutdown(),
    traced.provider.shutdown(),
    starved.provider.shutdown(),
  ]);
}

await main();
