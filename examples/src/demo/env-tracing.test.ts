import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, OpenTelemetryExtension, ScriptedProvider } from "harnessx";
import { LangSmithExtension } from "harnessx/langsmith";
import { tracingFromEnv } from "./env-tracing.js";
import { startOtlpReceiver } from "@harnessx/exporters/test-support";

describe("the demo's tracing comes from the environment", () => {
  test("nothing set: no tracing (the demo converts its recording instead)", async () => {
    assert.equal(await tracingFromEnv({ env: {} }), undefined);
  });

  test("LANGSMITH_ENDPOINT: a LangSmith extension per agent", async () => {
    const tracing = (await tracingFromEnv({
      env: { LANGSMITH_ENDPOINT: "http://127.0.0.1:9", LANGSMITH_API_KEY: "k" },
    }))!;
    const first = tracing.createExtensions();
    assert.equal(first.length, 1);
    assert.ok(first[0] instanceof LangSmithExtension);
    assert.notEqual(first[0], tracing.createExtensions()[0], "fresh instances: one per agent");
    assert.deepEqual(tracing.targets, ["LangSmith http://127.0.0.1:9"]);
    await tracing.shutdown();
  });

  test("OTEL_EXPORTER_OTLP_ENDPOINT: the SDK starts and spans reach the endpoint", async () => {
    const receiver = await startOtlpReceiver();
    const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url.replace(/\/v1\/traces$/, "");
    try {
      const tracing = (await tracingFromEnv({ serviceName: "demo" }))!;
      const [extension] = tracing.createExtensions();
      assert.ok(extension instanceof OpenTelemetryExtension);
      const agent = new Agent({
        name: "demo",
        provider: new ScriptedProvider([{ text: "hello" }]),
        extensions: [extension],
      });
      await agent.run("hi");
      await agent.close();
      await tracing.shutdown();
      assert.deepEqual(receiver.spans.map((s) => [s.name, s.serviceName]).sort(), [
        ["chat scripted-model", "demo"],
        ["invoke_agent demo", "demo"],
      ]);
    } finally {
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
      await receiver.close();
    }
  });
});
