import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent, FileDurableStore, ScriptedProvider, tool, type ScriptedReply } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { OpenTelemetryExtension } from "./extension.js";

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("test") };
}

const SCRIPT: ScriptedReply[] = [{ toolCalls: [{ id: "c1", name: "lookup", input: {} }] }, { text: "done" }];
const provider = () => new ScriptedProvider(SCRIPT, { stepBy: "conversation" });
const lookup = (hang: boolean) =>
  tool({
    name: "lookup",
    description: "looks up",
    replayPolicy: "safe",
    execute: () => (hang ? new Promise<string>(() => {}) : "found"),
  });

describe("a durable run resumed in a new process stays in its trace", () => {
  test("the resumed part is a span under the run's original span, with its model and tool spans under it", async () => {
    const journals = mkdtempSync(join(tmpdir(), "hx-otel-durable-"));
    try {
      const before = sdk();
      const first = new Agent({
        name: "durable",
        provider: provider(),
        tools: [lookup(true)],
        durable: { store: new FileDurableStore(journals) },
        extensions: [new OpenTelemetryExtension({ tracer: before.tracer })],
      });
      const runId = await new Promise<string>((resolve) => {
        first.hooks.on(
          HookEvent.CHECKPOINT,
          (ctx) => void (ctx.data.phase === "tool_started" && resolve(ctx.data.runId)),
        );
        void first.run("go");
      });
      const [firstChat] = before.exporter.getFinishedSpans();
      const originalRun = firstChat!.parentSpanContext!;

      const after = sdk();
      const second = new Agent({
        name: "durable",
        provider: provider(),
        tools: [lookup(false)],
        durable: { store: new FileDurableStore(journals) },
        extensions: [new OpenTelemetryExtension({ tracer: after.tracer })],
      });
      const errors: unknown[] = [];
      second.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
      assert.equal((await second.resume(runId)).status, "completed");
      await second.close();
      const spans = after.exporter.getFinishedSpans();
      const run = spans.find((s) => s.name === "invoke_agent durable")!;
      assert.equal(run.spanContext().traceId, originalRun.traceId, "the same trace");
      assert.equal(run.parentSpanContext?.spanId, originalRun.spanId, "under the run's original span");
      const children = spans.filter((s) => s !== run);
      assert.deepEqual(children.map((s) => s.name).sort(), ["chat scripted-model", "execute_tool lookup"]);
      for (const child of children) assert.equal(child.parentSpanContext?.spanId, run.spanContext().spanId);
      assert.deepEqual(errors, []);
    } finally {
      rmSync(journals, { recursive: true, force: true });
    }
  });
});
