import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, ScriptedProvider, tool, type RunResult, type ScriptStep } from "@harnessx/core";
import { HookEvent, type ErrorData } from "@harnessx/core/extension";
import { FlightRecorderExtension, RecordingStore } from "@harnessx/recorder";
import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { OpenTelemetryExtension } from "../otel/extension.js";
import { setupTelemetry } from "../otel-setup/setup.js";
import { LangSmithExtension } from "../langsmith/extension.js";
import type { LangSmithServer, StoredRun } from "./langsmith-server.js";

/** What one agent with both exporters (and the flight recorder) sent, keyed by core's trace id. */
export interface SampledRuns {
  /** Each run's trace id, as core stamped it on AGENT_START, in run order. */
  traceIds: string[];
  /** Spans the SDK finished, by trace id. */
  spans: Map<string, ReadableSpan[]>;
  /** Runs the LangSmith server assembled, by the trace id of the agent run they belong to. */
  langsmith: Map<string, StoredRun[]>;
  /** Trace ids of the runs the flight recorder wrote. */
  recorded: string[];
  /** The `traceparent` an instrumented client inside each run's tool call would send on. */
  sentTraceparents: string[];
  /** Losses the exporters reported (`ERROR` events with `source: "exporter"`). */
  losses: ErrorData[];
  /** Spans the SDK's pipeline lost. */
  droppedSpans: number;
}

export interface SampledRunsOptions {
  runs: number;
  /** `sample` of each extension. */
  sample?: number;
  /** A tracer for the OpenTelemetry extension instead of the pipeline's (another sampler). */
  tracer?: (pipeline: Tracer) => Tracer;
  /** Runs each agent run, e.g. inside a context; default: as is. */
  within?: (run: () => Promise<RunResult>) => Promise<RunResult>;
  /** Leave the OpenTelemetry extension out (the SDK still runs: its context manager and propagator). */
  langsmithOnly?: boolean;
}

/** One tool call (which, like an instrumented HTTP client, starts a span and injects a `traceparent`) and an answer, per run. */
function probeAgent(runs: number, sent: string[]): { tools: ReturnType<typeof tool>[]; steps: ScriptStep[] } {
  const probe = tool({
    name: "probe",
    description: "Calls a downstream service.",
    execute: () => {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      sent.push(carrier.traceparent ?? "");
      trace.getTracer("instrumented-http").startSpan("GET /downstream").end();
      return "up";
    },
  });
  const steps = Array.from({ length: runs }, (): ScriptStep[] => [
    { toolCalls: [{ name: "probe", input: {} }] },
    { text: "ok" },
  ]).flat();
  return { tools: [probe], steps };
}

function grouped<T>(items: Iterable<T>, key: (item: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k !== undefined) out.set(k, [...(out.get(k) ?? []), item]);
  }
  return out;
}

/**
 * Runs `runs` runs of one agent carrying the real OpenTelemetry SDK (NodeSDK with its context
 * manager and W3C propagator, spans kept in memory), the LangSmith extension talking to `server`,
 * and the flight recorder; then reads back what each backend got.
 */
export async function sampledRuns(server: LangSmithServer, options: SampledRunsOptions): Promise<SampledRuns> {
  const dir = mkdtempSync(join(tmpdir(), "hx-sampling-"));
  const exporter = new InMemorySpanExporter();
  const telemetry = setupTelemetry({ serviceName: "sampling-test", exporter });
  const sentTraceparents: string[] = [];
  const { tools, steps } = probeAgent(options.runs, sentTraceparents);
  const otel = new OpenTelemetryExtension({
    telemetry,
    sample: options.sample,
    ...(options.tracer ? { tracer: options.tracer(telemetry.tracer) } : {}),
  });
  const agent = new Agent({
    name: "sampled",
    provider: new ScriptedProvider(steps),
    tools,
    extensions: [
      new FlightRecorderExtension({ dir }),
      ...(options.langsmithOnly ? [] : [otel]),
      new LangSmithExtension({
        clientConfig: { apiUrl: server.url, apiKey: "test-key" },
        projectName: "sampling",
        sample: options.sample,
      }),
    ],
  });
  /** Core's trace id of each run, by run id. */
  const runs = new Map<string, string>();
  const losses: ErrorData[] = [];
  agent.hooks.on(HookEvent.AGENT_START, (ctx) => void runs.set(ctx.runId!, ctx.span!.traceId));
  agent.hooks.on(HookEvent.ERROR, (ctx) => void (ctx.data.source === "exporter" && losses.push(ctx.data)));
  try {
    const within = options.within ?? ((run) => run());
    for (let i = 0; i < options.runs; i++) await within(() => agent.run(`question ${i}`));
    await agent.close();
    await telemetry.forceFlush();
    const spans = grouped(exporter.getFinishedSpans(), (span) => span.spanContext().traceId);
    const droppedSpans = (await telemetry.shutdown()).dropped;
    // A LangSmith trace is its chain run's; the chain run names the harnessx run it stands for.
    const stored = [...server.runs.values()];
    const chainRun = new Map(
      stored
        .filter((run) => run.run_type === "chain")
        .map((chain) => [
          chain.trace_id,
          (chain.extra as { metadata?: { harnessx_run_id?: string } }).metadata?.harnessx_run_id ?? "",
        ]),
    );
    const langsmith = grouped(stored, (run) => runs.get(chainRun.get(run.trace_id) ?? ""));
    const recorded = (await new RecordingStore(dir).listRuns()).map((run) => run.traceId ?? "");
    return { traceIds: [...runs.values()], spans, langsmith, recorded, sentTraceparents, losses, droppedSpans };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
