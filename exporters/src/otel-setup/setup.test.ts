import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setupTelemetry } from "./setup.js";
import { startOtlpReceiver } from "../test-support/otlp-receiver.js";
import { withOtelEnv } from "../test-support/otel-env.js";

describe("setupTelemetry wires the NodeSDK from the standard OTEL_* variables", () => {
  test("OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME and OTEL_EXPORTER_OTLP_HEADERS are honoured", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const endpoint = receiver.url.replace(/\/v1\/traces$/, "");
      const stopped = await withOtelEnv(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          OTEL_SERVICE_NAME: "from-env",
          OTEL_EXPORTER_OTLP_HEADERS: "x-team=tracing",
        },
        async () => {
          const telemetry = setupTelemetry({ serviceName: "from-code" });
          telemetry.tracer.startSpan("hello").end();
          return telemetry.shutdown();
        },
      );
      assert.deepEqual(stopped, { flushed: true, dropped: 0 });
      assert.deepEqual(
        receiver.spans.map((s) => [s.name, s.serviceName]),
        [["hello", "from-env"]],
      );
      assert.equal(receiver.headers[0]!["x-team"], "tracing");
    } finally {
      await receiver.close();
    }
  });

  test("serviceName and url from code when no variable is set; shutdown can be called twice", async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withOtelEnv({}, async () => {
        const telemetry = setupTelemetry({ serviceName: "from-code", url: receiver.url });
        telemetry.tracer.startSpan("a").end();
        telemetry.tracer.startSpan("b").end();
        const first = await telemetry.shutdown();
        assert.deepEqual(first, await telemetry.shutdown());
        assert.equal(telemetry.counts.exported, 2);
      });
      assert.deepEqual(
        receiver.spans.map((s) => s.serviceName),
        ["from-code", "from-code"],
      );
    } finally {
      await receiver.close();
    }
  });

  test("OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf sends protobuf; grpc is refused clearly", async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withOtelEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }, async () => {
        const telemetry = setupTelemetry({ url: receiver.url });
        telemetry.tracer.startSpan("proto").end();
        assert.deepEqual(await telemetry.shutdown(), { flushed: true, dropped: 0 });
      });
      assert.equal(receiver.headers[0]!["content-type"], "application/x-protobuf");
      assert.ok(receiver.bodies[0]!.includes("proto"), "the span name is in the protobuf body");
      await withOtelEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, async () => {
        assert.throws(() => setupTelemetry({ url: receiver.url }), /protocol "grpc" is not supported/);
      });
    } finally {
      await receiver.close();
    }
  });
});
