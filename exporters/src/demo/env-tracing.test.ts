import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { tracingFromEnv } from "./env-tracing.js";
import { LangSmithExtension } from "../langsmith/extension.js";
import { OpenTelemetryExtension } from "../otel/extension.js";
import { startOtlpReceiver } from "../test-support/otlp-receiver.js";

describe("the demo's tracing comes from the environment", () => {
  test("nothing set: no tracing (the demo converts its recording instead)", () => {
    assert.equal(tracingFromEnv({ env: {} }), undefined);
  });

  test("LANGSMITH_ENDPOINT: a LangSmith extension per agent", async () => {
    const tracing = tracingFromEnv({ env: { LANGSMITH_ENDPOINT: "http://127.0.0.1:9", LANGSMITH_API_KEY: "k" } })!;
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
      const tracing = tracingFromEnv({ serviceName: "demo" })!;
      const [extension] = tracing.createExtensions();
      assert.ok(extension instanceof OpenTelemetryExtension);
      const agent = new Agent({ name: "demo", provider: new ScriptedProvider([{ text: "hello" }]), extensions: [extension] });
      await agent.run("hi");
      await agent.close();
      await tracing.shutdown();
      assert.deepEqual(receiver.spans.map((s) => [s.name, s.serviceName]).sort(), [["chat scripted-model", "demo"], ["invoke_agent demo", "demo"]]);
    } finally {
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
      await receiver.close();
    }
  });
});
