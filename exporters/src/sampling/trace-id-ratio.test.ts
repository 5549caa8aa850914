import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { ConfigError } from "@harnessx/core";
import { newTraceId, traceIdRatioSampled } from "@harnessx/core/tracing";
import { ROOT_CONTEXT } from "@opentelemetry/api";
import { SamplingDecision, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import { OpenTelemetryExtension } from "../otel/extension.js";
import { LangSmithExtension } from "../langsmith/extension.js";
import { runSampled } from "./run-sampling.js";

function sdkSampled(traceId: string, ratio: number): boolean {
  return (
    new TraceIdRatioBasedSampler(ratio).shouldSample(ROOT_CONTEXT, traceId).decision ===
    SamplingDecision.RECORD_AND_SAMPLED
  );
}

/** A trace id whose four words XOR to `value`: the value in the first word, zeros after it. */
function foldingTo(value: number): string {
  return value.toString(16).padStart(8, "0") + "0".repeat(24);
}

const RATIOS = [0, 1e-6, 0.01, 0.25, 0.5, 0.75, 0.999, 1];

describe("core's traceIdRatioSampled is OpenTelemetry's TraceIdRatioBased, id for id", () => {
  test("random trace ids: the same answer as the SDK's sampler at every ratio", () => {
    const ids = Array.from({ length: 2000 }, () => randomBytes(16).toString("hex"));
    for (const ratio of RATIOS) {
      const differing = ids.filter((id) => traceIdRatioSampled(id, ratio) !== sdkSampled(id, ratio));
      assert.deepEqual(differing, [], `ratio ${ratio}`);
    }
  });

  test("ids at the bound and the extremes: the same answer as the SDK's sampler", () => {
    const ids = [`${"0".repeat(31)}1`, "f".repeat(32), `ffffffff${"0".repeat(24)}`, foldingTo(1)];
    for (const ratio of RATIOS) {
      const bound = Math.floor(ratio * 0xffffffff);
      for (const id of [
        ...ids,
        ...(bound > 0 ? [foldingTo(bound - 1), foldingTo(bound)] : []),
        ...(bound < 0xffffffff ? [foldingTo(bound + 1)] : []),
      ]) {
        assert.equal(traceIdRatioSampled(id, ratio), sdkSampled(id, ratio), `${id} at ${ratio}`);
      }
    }
  });

  test("an id that is not a trace id is never sampled, as in the SDK", () => {
    for (const id of ["0".repeat(32), "xyz", ""]) {
      assert.equal(traceIdRatioSampled(id, 1), false);
      assert.equal(sdkSampled(id, 1), false);
    }
  });

  test("about the ratio's share of random ids is kept", () => {
    const kept = Array.from({ length: 4000 }, () => newTraceId()).filter((id) => traceIdRatioSampled(id, 0.25)).length;
    assert.ok(kept > 800 && kept < 1200, `${kept} of 4000 kept at 0.25`);
  });
});

describe("a parent's sampled flag wins over the ratio", () => {
  const id = newTraceId();
  test("a sampled parent keeps the run at ratio 0; an unsampled one drops it at ratio 1", () => {
    assert.equal(runSampled(id, 0, true), true);
    assert.equal(runSampled(id, 1, false), false);
  });

  test("without a parent: 0 drops, 1 keeps, and a ratio between needs the trace id", () => {
    assert.equal(runSampled(undefined, 0, undefined), false);
    assert.equal(runSampled(undefined, 1, undefined), true);
    assert.equal(runSampled(undefined, 0.5, undefined), undefined);
    assert.equal(runSampled(id, 0.5, undefined), traceIdRatioSampled(id, 0.5));
  });
});

describe("sample is checked when the extension is made", () => {
  const bad: unknown[] = [-0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "0.5", null];
  for (const [name, make] of [
    ["OpenTelemetryExtension", (sample: unknown) => new OpenTelemetryExtension({ sample: sample as number })],
    [
      "LangSmithExtension",
      (sample: unknown) =>
        new LangSmithExtension({
          sample: sample as number,
          clientConfig: { apiUrl: "http://127.0.0.1:9", apiKey: "k" },
        }),
    ],
  ] as const) {
    test(`${name}: a value outside 0..1 or not a number is a ConfigError naming the option`, () => {
      for (const sample of bad) {
        assert.throws(
          () => make(sample),
          (err: unknown) =>
            err instanceof ConfigError &&
            err.code === "invalid_config" &&
            err.message.startsWith(`${name}: sample must be a number from 0 to 1`),
          `sample ${String(sample)}`,
        );
      }
    });

    test(`${name}: 0, 1, a fraction and no value are accepted`, () => {
      for (const sample of [0, 1, 0.3, undefined]) assert.doesNotThrow(() => make(sample));
    });
  }
});
