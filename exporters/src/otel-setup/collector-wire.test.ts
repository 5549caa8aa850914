// What an OpenTelemetry Collector's OTLP/HTTP receiver reads from setupTelemetry: protobuf and JSON
// bodies, gzip or not, decoded on a real loopback server (protobuf by protobufjs from the OTLP field
// numbers, not by the SDK's own encoder) into the spans the application made.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SpanStatusCode, context, trace } from "@opentelemetry/api";
import { setupTelemetry } from "./setup.js";
import { ExporterError } from "../errors.js";
import type { OtlpCompression, OtlpProtocol } from "../otlp/otlp-exporter.js";
import { startOtlpReceiver, type OtlpReceiver } from "../test-support/otlp-receiver.js";
import { withOtelEnv } from "../test-support/otel-env.js";

/** A parent span and a failed child with attributes of each type and an event; the ids they got. */
async function sendTwoSpans(
  receiver: OtlpReceiver,
  options: { protocol?: OtlpProtocol; compression?: OtlpCompression },
) {
  const telemetry = setupTelemetry({ serviceName: "checkout", url: receiver.url, ...options });
  const parent = telemetry.tracer.startSpan("invoke_agent support");
  const parentContext = trace.setSpan(context.active(), parent);
  const child = telemetry.tracer.startSpan(
    "execute_tool lookup",
    {
      attributes: {
        "gen_ai.tool.name": "lookup",
        "gen_ai.usage.input_tokens": 40,
        cached: true,
        regions: ["eu-west", "us-east"],
      },
    },
    parentContext,
  );
  child.addEvent("harnessx.retry", { attempt: 2 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: "tool timed out" });
  child.end();
  parent.end();
  const stopped = await telemetry.shutdown();
  return { stopped, parent: parent.spanContext(), child: child.spanContext() };
}

async function checkDelivered(options: { protocol: OtlpProtocol; compression: OtlpCompression }, expectedType: string) {
  const receiver = await startOtlpReceiver();
  try {
    const sent = await withOtelEnv({}, () => sendTwoSpans(receiver, options));
    assert.deepEqual(sent.stopped, { flushed: true, dropped: 0 });
    assert.deepEqual(
      receiver.received.map((r) => [r.contentType, r.contentEncoding, r.status]),
      [[expectedType, options.compression === "gzip" ? "gzip" : undefined, 200]],
    );
    const byName = new Map(receiver.spans.map((s) => [s.name, s]));
    const parent = byName.get("invoke_agent support");
    const child = byName.get("execute_tool lookup");
    assert.ok(parent && child, `both spans decoded: ${[...byName.keys()]}`);
    assert.equal(parent.traceId, sent.parent.traceId);
    assert.equal(parent.spanId, sent.parent.spanId);
    assert.equal(parent.parentSpanId, undefined);
    assert.equal(child.traceId, sent.parent.traceId);
    assert.equal(child.spanId, sent.child.spanId);
    assert.equal(child.parentSpanId, sent.parent.spanId);
    assert.deepEqual(child.attributes, {
      "gen_ai.tool.name": "lookup",
      "gen_ai.usage.input_tokens": 40,
      cached: true,
      regions: ["eu-west", "us-east"],
    });
    assert.deepEqual(
      child.events.map((e) => [e.name, e.attributes]),
      [["harnessx.retry", { attempt: 2 }]],
    );
    assert.deepEqual(child.status, { code: 2, message: "tool timed out" });
    assert.ok(
      BigInt(child.endTimeUnixNano) >= BigInt(child.startTimeUnixNano) && BigInt(child.startTimeUnixNano) > 0n,
      "nanosecond times",
    );
    assert.equal(parent.serviceName, "checkout");
  } finally {
    await receiver.close();
  }
}

describe("a collector decodes what setupTelemetry sends", () => {
  test("http/protobuf: application/x-protobuf bodies with the spans' ids, parents, attributes, events and status", () =>
    checkDelivered({ protocol: "http/protobuf", compression: "none" }, "application/x-protobuf"));

  test("http/protobuf with gzip: Content-Encoding gzip, the same spans once decompressed", () =>
    checkDelivered({ protocol: "http/protobuf", compression: "gzip" }, "application/x-protobuf"));

  test("http/json: application/json bodies with the same spans", () =>
    checkDelivered({ protocol: "http/json", compression: "none" }, "application/json"));

  test("http/json with gzip", () => checkDelivered({ protocol: "http/json", compression: "gzip" }, "application/json"));
});

describe("compression comes from the standard variables, or is refused clearly", () => {
  test("OTEL_EXPORTER_OTLP_COMPRESSION=gzip compresses; OTEL_EXPORTER_OTLP_TRACES_COMPRESSION=none overrides it for traces", async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withOtelEnv({ OTEL_EXPORTER_OTLP_COMPRESSION: "gzip" }, () => sendTwoSpans(receiver, {}));
      await withOtelEnv({ OTEL_EXPORTER_OTLP_COMPRESSION: "gzip", OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: "none" }, () =>
        sendTwoSpans(receiver, {}),
      );
      assert.deepEqual(
        receiver.received.map((r) => [r.contentEncoding, r.status]),
        [
          ["gzip", 200],
          [undefined, 200],
        ],
      );
      assert.equal(receiver.spans.length, 4);
    } finally {
      await receiver.close();
    }
  });

  test("a compression other than gzip or none is an ExporterError naming it", async () => {
    const receiver = await startOtlpReceiver();
    try {
      await withOtelEnv({}, async () => {
        assert.throws(
          () => setupTelemetry({ url: receiver.url, compression: "br" as OtlpCompression }),
          (error: unknown) =>
            error instanceof ExporterError &&
            error.code === "unsupported_compression" &&
            /"br" is not supported/.test(error.message),
        );
      });
      assert.equal(receiver.requests, 0);
    } finally {
      await receiver.close();
    }
  });
});
