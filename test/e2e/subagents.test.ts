// A parent with two subagents, one failing, traced end to end: the live OpenTelemetry spans, the
// LangSmith runs (the local fake) and the recording name the same trace, and each child's run
// hangs under the parent's tool call in all three; `trace show` expands the children inline and
// `trace export` puts them in the parent's bundle.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { SpanStatusCode } from "@opentelemetry/api";
import {
  Agent,
  FlightRecorderExtension,
  OpenTelemetryExtension,
  ScriptedProvider,
  runDirOf,
  tool,
  type Extension,
  type RunManifest,
} from "harnessx";
import { LangSmithExtension } from "harnessx/langsmith";
import { startLangSmithServer, type LangSmithServer, type StoredRun } from "@harnessx/exporters/test-support";
import { cliWorkspace } from "@harnessx/cli/test-support";

const cli = cliWorkspace("hx-subagents-");
let server: LangSmithServer;
let spans: ReadableSpan[];
let parentRunId: string;

const lookup = tool({
  name: "lookup",
  description: "Status of a region.",
  execute: ({ region }) => `${String(region)}: up`,
});

before(async () => {
  server = await startLangSmithServer("ok");
  const exporter = new InMemorySpanExporter();
  const otel = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // One factory gives every agent the same kinds of extensions: a subagent inherits none of its parent's.
  const tracing = (): Extension[] => [
    new FlightRecorderExtension({ dir: cli.store }),
    new OpenTelemetryExtension({ tracer: otel.getTracer("subagents") }),
    new LangSmithExtension({ clientConfig: { apiUrl: server.url, apiKey: "test-key" }, projectName: "subagents" }),
  ];
  const researcher = new Agent({
    name: "researcher",
    provider: new ScriptedProvider([
      { toolCalls: [{ name: "lookup", input: { region: "eu" } }] },
      { text: "EU is up." },
    ]),
    tools: [lookup],
    extensions: tracing(),
  });
  const auditor = new Agent({
    name: "auditor",
    provider: new ScriptedProvider([{ error: { status: 400, message: "the audit model refused the request" } }]),
    extensions: tracing(),
  });
  const boss = new Agent({
    name: "boss",
    provider: new ScriptedProvider([
      {
        toolCalls: [
          { id: "r", name: "research", input: { input: "How is the EU region?" } },
          { id: "a", name: "audit", input: { input: "Audit the EU region." } },
        ],
      },
      { text: "EU is up; the audit failed." },
    ]),
    tools: [
      researcher.asTool({ name: "research", description: "Finds out a region's status." }),
      auditor.asTool({ name: "audit", description: "Audits a region." }),
    ],
    extensions: tracing(),
  });
  const result = await boss.run("Report on the EU region.");
  assert.equal(result.status, "completed", result.error?.message);
  parentRunId = result.runId;
  await Promise.all([boss.close(), researcher.close(), auditor.close()]);
  await otel.forceFlush();
  spans = exporter.getFinishedSpans();
  await otel.shutdown();
});
after(async () => {
  await server?.close();
  cli.cleanup();
});

const span = (name: string) => {
  const found = spans.find((s) => s.name === name);
  assert.ok(found, `a span named ${name} among ${spans.map((s) => s.name).join(", ")}`);
  return found;
};
const runJson = (runId: string) =>
  JSON.parse(readFileSync(join(runDirOf(cli.store, runId), "run.json"), "utf8")) as RunManifest;
/** The recorded runs: the boss's and its children's (linked by `parentRunId`), by agent name. */
function recorded() {
  const runs = readdirSync(join(cli.store, "runs")).map(runJson);
  const boss = runJson(parentRunId);
  const child = (agent: string) => {
    const found = runs.find((r) => r.agent === agent);
    assert.ok(found, `a recorded run of ${agent}`);
    return found;
  };
  return { boss, child };
}
const lsRun = (name: string, type: string): StoredRun => {
  const found = [...server.runs.values()].find((r) => r.name === name && r.run_type === type);
  assert.ok(found, `a LangSmith ${type} run named ${name}`);
  return found;
};

describe("one identity for the parent and its subagents", () => {
  test("OpenTelemetry: one trace; each child's invoke_agent span is a child of the parent's execute_tool span", () => {
    const traceIds = new Set(spans.map((s) => s.spanContext().traceId));
    assert.equal(traceIds.size, 1, "the children are in the parent's trace");
    for (const [toolName, agent] of [
      ["research", "researcher"],
      ["audit", "auditor"],
    ]) {
      const call = span(`execute_tool ${toolName}`);
      assert.equal(span(`invoke_agent ${agent}`).parentSpanContext?.spanId, call.spanContext().spanId);
      assert.equal(call.parentSpanContext?.spanId, span("invoke_agent boss").spanContext().spanId);
    }
    assert.equal(
      span("execute_tool lookup").parentSpanContext?.spanId,
      span("invoke_agent researcher").spanContext().spanId,
      "the child's own tool calls nest under its run",
    );
    assert.equal(span("invoke_agent auditor").status.code, SpanStatusCode.ERROR);
    assert.equal(span("execute_tool audit").status.code, SpanStatusCode.ERROR, "a failing child is a failed tool call");
    assert.equal(span("execute_tool research").status.code, SpanStatusCode.UNSET);
  });

  test("LangSmith: each child's chain run is nested under the parent's tool run, in its trace", () => {
    const boss = lsRun("boss", "chain");
    for (const [toolName, agent] of [
      ["research", "researcher"],
      ["audit", "auditor"],
    ]) {
      const toolRun = lsRun(toolName, "tool");
      const child = lsRun(agent, "chain");
      assert.equal(toolRun.parent_run_id, boss.id);
      assert.equal(child.parent_run_id, toolRun.id, `${agent} nests under the ${toolName} tool run`);
      assert.equal(child.trace_id, boss.trace_id);
      assert.ok(child.dotted_order.startsWith(`${toolRun.dotted_order}.`), "dotted order continues the tool run's");
    }
    assert.equal(lsRun("lookup", "tool").parent_run_id, lsRun("researcher", "chain").id);
    assert.ok(lsRun("auditor", "chain").error, "the failed child run carries its error");
  });

  test("the recording: each child is its own run linked to the parent run and its tool-call span", () => {
    const { boss, child } = recorded();
    const traceId = span("invoke_agent boss").spanContext().traceId;
    assert.equal(boss.traceId, traceId);
    assert.equal(boss.parentRunId, undefined);
    for (const [toolName, agent, status] of [
      ["research", "researcher", "completed"],
      ["audit", "auditor", "failed"],
    ]) {
      const run = child(agent);
      assert.equal(run.parentRunId, boss.runId);
      assert.equal(run.parentSpanId, span(`execute_tool ${toolName}`).spanContext().spanId);
      assert.equal(run.traceId, traceId);
      assert.equal(run.runSpanId, span(`invoke_agent ${agent}`).spanContext().spanId);
      assert.equal(run.status, status);
    }
  });
});

async function trace(...args: string[]): Promise<string> {
  const r = await cli.trace(...args);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

describe("the CLI reads a parent with its subagents", () => {
  test("trace show expands each child's run inline, indented, under the tool call that ran it", async () => {
    const out = await trace("--no-color", "show", parentRunId);
    const lines = out.split("\n");
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const indent = (line: string) => /^#\S+\s+\+\S+\s(\s*)/.exec(line)?.[1].length ?? -1;
    const researchStart = at(/tool_call_start\s+research/);
    const researcher = at(/↳ subagent run run_\S+\s+researcher, completed/);
    const auditor = at(/✗ subagent run run_\S+\s+auditor, failed/);
    assert.ok(
      researchStart < researcher && researcher < at(/tool_call_end\s+research/),
      "the researcher's run sits inside the research call",
    );
    assert.ok(
      at(/tool_call_start\s+audit/) < auditor && auditor < at(/tool_call_end\s+audit/),
      "the auditor's run sits inside the audit call",
    );
    const lookup = at(/tool_call_start\s+lookup/);
    assert.ok(researcher < lookup && lookup < at(/tool_call_end\s+research/), "the child's own tool call is shown");
    assert.ok(indent(lines[lookup]) > indent(lines[researchStart]), "the child's events are indented under the call");
    assert.match(out, /audit model refused the request/, "the failing child's error is shown");
    const json = JSON.parse(await trace("--json", "show", parentRunId)) as Array<{
      kind: string;
      linkedRuns?: Array<{ agent: string; status: string; events: unknown[] }>;
    }>;
    const linked = json.flatMap((e) => e.linkedRuns ?? []).map((r) => [r.agent, r.status, r.events.length > 0]);
    assert.deepEqual(linked, [
      ["researcher", "completed", true],
      ["auditor", "failed", true],
    ]);
  });

  test("trace export bundles the children with the parent; verify, show and scrub read the bundle", async () => {
    const bundle = join(cli.work, "boss.tar");
    const exported = JSON.parse(await trace("--json", "export", parentRunId, "-o", bundle)) as { linkedRuns: string[] };
    const { child } = recorded();
    assert.deepEqual(new Set(exported.linkedRuns), new Set([child("researcher").runId, child("auditor").runId]));
    await trace("verify", bundle);
    const fromBundle = await trace("--no-color", "show", bundle);
    assert.match(fromBundle, /↳ subagent run run_\S+\s+researcher, completed/);
    assert.match(fromBundle, /✗ subagent run run_\S+\s+auditor, failed/);
    assert.equal(fromBundle, await trace("--no-color", "show", parentRunId), "the bundle shows what the store shows");
    const scrubbed = join(cli.work, "boss-scrubbed.tar");
    await trace("scrub", bundle, "-o", scrubbed);
    await trace("verify", scrubbed);
    const scrubbedShow = await trace("--no-color", "show", scrubbed);
    assert.match(
      scrubbedShow,
      /↳ subagent run run_\S+\s+researcher, completed/,
      "the scrubbed bundle keeps the children",
    );
    assert.match(scrubbedShow, /✗ subagent run run_\S+\s+auditor, failed/);
  });
});
